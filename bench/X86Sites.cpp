#include "bench/X86Sites.h"

#include "encoder/x86_64/Padding.h"

#include <cstdio>
#include <stdexcept>

namespace patchcheck::bench {
namespace {

// A TOML string: literal quotes when the text holds double quotes
// (`write 0 = "int3"`).
std::string quoted(const std::string& s) {
  return s.find('"') == std::string::npos ? "\"" + s + "\"" : "'" + s + "'";
}

std::string list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t k = 0; k < items.size(); ++k) out += (k ? ", " : "") + quoted(items[k]);
  return out + "]";
}

std::string bytesDirective(const std::vector<unsigned>& bytes) {
  std::string out = ".byte ";
  char hex[8];
  for (size_t k = 0; k < bytes.size(); ++k) {
    std::snprintf(hex, sizeof hex, "0x%02x", bytes[k]);
    out += (k ? ", " : "") + std::string(hex);
  }
  return out;
}

std::string range(unsigned first, unsigned last) {
  return first == last ? std::to_string(first) : std::to_string(first) + ".." + std::to_string(last);
}

}  // namespace

unsigned X86Site::bytes() const {
  unsigned n = 0;
  for (const X86Change& c : instructions) n += c.bytes;
  return n;
}

Steps textPokeBp(const X86Site& site) {
  Steps breakpoints, bodies, firsts;
  unsigned at = 0;
  for (const X86Change& c : site.instructions) {
    breakpoints.push_back("write " + std::to_string(at) + " = \"int3\"");
    if (c.bytes > 1) bodies.push_back("write " + range(at + 1, at + c.bytes - 1));
    firsts.push_back("write " + std::to_string(at));
    at += c.bytes;
  }
  Steps out;
  for (const Steps* group : {&breakpoints, &bodies, &firsts}) {
    if (group->empty()) continue;
    out.insert(out.end(), group->begin(), group->end());
    out.push_back("sync_core");
  }
  return out;
}

Steps plainWrite(const X86Site& site) { return {"write " + range(0, site.bytes() - 1), "sync_core"}; }

std::string specText(const X86Site& site, const std::vector<Steps>& transitions) {
  std::vector<std::string> from, to;
  for (const X86Change& c : site.instructions) from.push_back(c.from), to.push_back(c.to);
  std::string s = "schema = 1\nname = \"x86-bench\"\n[target]\nisa = \"x86_64\"\n";
  s += "[site]\nbytes = " + std::to_string(site.bytes()) + "\n";
  if (!site.body.empty()) s += "body = " + list(site.body) + "\n";
  s += "[symbols]\nF = { in = \"kernel-text\", align = 16 }\n";
  for (const std::string& name : site.symbols) s += name + " = { in = \"kernel-text\", align = 16 }\n";
  s += "[states]\nold = " + list(from) + "\nnew = " + list(to) + "\n";
  s += "[behaviour]\nold = " + quoted(site.fromBehaviour) + "\nnew = " + quoted(site.toBehaviour) + "\n";
  if (!site.int3Handler.empty()) s += "[model]\nint3_handler = " + quoted(site.int3Handler) + "\n";
  for (size_t k = 0; k < transitions.size(); ++k)  // named: two share from and to
    s += "[[transition]]\nname = \"t" + std::to_string(k) + "\"\nfrom = \"old\"\nto = \"new\"\nsteps = " +
         list(transitions[k]) + "\n";
  return s;
}

std::string x86Nop(unsigned length) {
  if (length < 1 || length > 15) throw std::invalid_argument("an x86 instruction is 1 to 15 bytes");
  // Up to 11 bytes: the one nop GNU as pads with (x86_nops[1..8] and its
  // longer forms).
  if (length < 12) {
    std::vector<std::vector<uint8_t>> nop = x86_64::paddingNops(length);
    return bytesDirective(std::vector<unsigned>(nop.front().begin(), nop.front().end()));
  }
  std::vector<unsigned> b(length - 11, 0x66);
  std::vector<uint8_t> longest = x86_64::paddingNops(11).front();
  b.insert(b.end(), longest.begin(), longest.end());
  return bytesDirective(b);
}

}  // namespace patchcheck::bench
