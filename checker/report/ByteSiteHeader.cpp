#include "checker/report/ByteSiteHeader.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "checker/report/CFormula.h"
#include "checker/report/PatchTable.h"

namespace patchcheck {
namespace {

using json = nlohmann::json;
using Bytes = std::vector<std::optional<uint8_t>>;

// "e8 ?? ?? ?? ??" (ByteSiteTable.h's byteText) back to bytes.
Bytes parseBytes(const std::string& text) {
  Bytes out;
  std::istringstream in(text);
  std::string b;
  while (in >> b) out.push_back(b == "??" ? std::nullopt : std::optional<uint8_t>(uint8_t(std::stoul(b, nullptr, 16))));
  return out;
}

std::string byteLiteral(uint8_t b) {
  char s[8];
  snprintf(s, sizeof s, "0x%02x", unsigned(b));
  return s;
}

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper((unsigned char)c));
  return s;
}

// Text inside a C comment.
std::string commentSafe(std::string s) {
  for (size_t at; (at = s.find("*/")) != std::string::npos;) s.replace(at, 2, "* /");
  return s;
}

// `name`, or with underscores appended until no parameter has it.
std::string fresh(std::string name, const std::set<std::string>& taken) {
  while (taken.count(name)) name += "_";
  return name;
}

bool dependsOnAddresses(const json& state) {
  for (const json& i : state["instructions"])
    if (i.contains("field")) return true;
  return false;
}

// The range a field's value must lie in, as a C condition that is true
// when it does not; empty when any value fits.
std::string outOfRange(const std::string& v, const json& field) {
  unsigned bits = 8 * field["bytes"].get<unsigned>();
  std::string fits = field["fits"];
  if (bits >= 64 || fits == "unchecked") return "";
  char max[32], half[32];
  snprintf(max, sizeof max, "0x%llxull", (unsigned long long)((1ull << bits) - 1));
  snprintf(half, sizeof half, "0x%llxull", (unsigned long long)(1ull << (bits - 1)));
  return fits == "signed" ? v + " + " + half + " > " + max : v + " > " + max;
}

// A state whose bytes depend on addresses: a function that writes them.
std::string encoderFunction(const std::string& fn, const json& state, unsigned siteBytes) {
  std::vector<std::string> params;  // symbols, in order of first use
  auto use = [&](const std::string& s) {
    if (!s.empty() && std::find(params.begin(), params.end(), s) == params.end()) params.push_back(s);
  };
  for (const json& i : state["instructions"])
    if (i.contains("field")) use(i["field"].value("slot_symbol", "")), use(i["field"]["symbol"]);  // where, then what
  std::set<std::string> taken;
  for (const std::string& p : params) taken.insert(cIdentifier(p));
  std::string code = fresh("code", taken);
  taken.insert(code);
  std::ostringstream o;
  o << "static inline int " << fn << "(u8 " << code << "[" << siteBytes << "]";
  for (const std::string& p : params) o << ", u64 " << cIdentifier(p);
  o << ")\n{\n";
  std::ostringstream checks, stores;
  unsigned k = 0;
  for (const json& i : state["instructions"]) {
    unsigned offset = i["offset"];
    Bytes bytes = parseBytes(i.contains("code") ? i["code"] : i["fixed"]);
    std::string v;
    if (i.contains("field")) {
      const json& f = i["field"];
      v = fresh("field" + std::to_string(k++), taken);
      taken.insert(v);
      std::string S = addressExpr(f["symbol"], f["addend"].get<int64_t>());
      std::string P = f.contains("slot_symbol") ? addressExpr(f["slot_symbol"], f["slot_addend"].get<int64_t>()) : "0";
      o << "\tu64 " << v << " = " << substitute(f["formula"], S, P) << ";\t/* +" << offset << ": "
        << commentSafe(i["text"]) << " */\n";
      if (std::string bad = outOfRange(v, f); !bad.empty())
        checks << "\tif (" << bad << ")\n\t\treturn -1;\t/* out of reach: no such instruction */\n";
    }
    for (unsigned b = 0; b < bytes.size(); ++b) {
      stores << "\t" << code << "[" << offset + b << "] = ";
      if (bytes[b]) {
        stores << byteLiteral(*bytes[b]) << ";\n";
        continue;
      }
      unsigned shift = 8 * (b - i["field"]["at"].get<unsigned>());
      stores << "(u8)" << (shift ? "(" + v + " >> " + std::to_string(shift) + ")" : v) << ";\n";
    }
  }
  o << "\n" << checks.str() << stores.str() << "\treturn 0;\n}\n";
  return o.str();
}

std::string stepsComment(const json& tr) {
  std::string out;
  for (const json& s : tr["steps"]) {
    std::string one = s["op"];
    if (one == "write") {
      unsigned first = s["index"], n = s.value("bytes", 1u);
      one += " " + std::to_string(first) + (n > 1 ? ".." + std::to_string(first + n - 1) : "");
      if (s.value("interim", false)) one += " = \"" + s["text"].get<std::string>() + "\"";
      if (s.contains("state")) one += " = " + s["state"].get<std::string>();
    }
    out += (out.empty() ? "" : ", ") + one;
  }
  return commentSafe(out);
}

}  // namespace

std::string byteSiteStepCodes() {
  return "\n#ifndef PATCHCHECK_STEP_SYNC_CORE\n"
         "/*\n * A byte site's transition is an array of steps { op | first byte, bytes, value }, in order;\n"
         " * first byte counts from the function's entry.\n */\n"
         "#define PATCHCHECK_STEP_WRITE_NEW\t0x0b000000u\t/* the bytes take their values in the new state */\n"
         "#define PATCHCHECK_STEP_WRITE_INTERIM\t0x0c000000u\t/* the byte takes `value` (int3: 0xcc) */\n"
         "#define PATCHCHECK_STEP_SYNC_CORE\t0x0d000000u\t/* text_poke_sync(): every CPU serialises */\n"
         "#define PATCHCHECK_STEP_IRQ_WINDOW\t0x0e000000u\t/* under stop_machine: interrupts on for a moment */\n"
         "#define PATCHCHECK_STEP_WRITE_STATE\t0x0f000000u\t/* the bytes take their values in state number `value` */\n"
         "#endif\n";
}

std::string byteSiteDeclarations(const json& t, const std::string& tp, unsigned siteBytes) {
  std::ostringstream o;
  o << "#define " << upper(tp) << "_BYTES\t" << siteBytes << "\t/* the site: the function's first bytes */\n";
  for (const json& s : t["states"]) {
    std::string st = s["name"], name = tp + "_" + cIdentifier(st);
    const json& insns = s["instructions"];
    o << "\n/* state " << st << ": " << commentSafe(s["behaviour"]);
    if (dependsOnAddresses(s)) {
      o << "\n * Its bytes depend on where the symbols lie: " << name << "() writes them\n"
        << " * for the given addresses, or returns -1 (writing nothing) when a field cannot reach.\n";
      for (const json& i : insns) {
        o << " * +" << i["offset"].get<unsigned>() << ": " << commentSafe(i["text"]) << ": "
          << (i.contains("code") ? i["code"] : i["fixed"]).get<std::string>();
        if (i.contains("field")) {
          const json& f = i["field"];
          o << "; at +" << f["at"].get<unsigned>() << ", " << f["bytes"].get<unsigned>() << " bytes of "
            << f["formula"].get<std::string>() << " (S = " << f["symbol"].get<std::string>()
            << (f["addend"].get<int64_t>() ? " + " + std::to_string(f["addend"].get<int64_t>()) : "");
          if (f.contains("slot_symbol"))
            o << ", P = " << f["slot_symbol"].get<std::string>() << " + " << f["slot_addend"].get<int64_t>();
          o << "), little-endian" << (f["fits"] == "unchecked" ? "" : ", " + f["fits"].get<std::string>());
        }
        o << "\n";
      }
      o << " */\n" << encoderFunction(name, s, siteBytes);
    } else {
      o << " */\nstatic const u8 " << name << "[" << siteBytes << "] PATCHCHECK_UNUSED = {\n";
      for (const json& i : insns) {
        std::string bytes;
        for (const auto& b : parseBytes(i["code"])) bytes += (bytes.empty() ? "" : " ") + byteLiteral(*b) + ",";
        o << "\t" << bytes << "\t/* +" << i["offset"].get<unsigned>() << ": " << commentSafe(i["text"]) << " */\n";
      }
      o << "};\n";
    }
    o << "/* each instruction: its offset from the function's entry, its length */\n"
      << "static const u16 " << name << "_insns[" << insns.size() << "][2] PATCHCHECK_UNUSED = {";
    for (size_t k = 0; k < insns.size(); ++k)
      o << (k ? ", " : " ") << "{ " << insns[k]["offset"].get<unsigned>() << ", " << insns[k]["length"].get<unsigned>()
        << " }";
    o << " };\n";
  }
  for (const json& tr : t["transitions"]) {
    std::string to = tr["to"];
    std::string name = tp + "_" + transitionCName(tr["name"].get<std::string>(), tr["from"].get<std::string>(), to);
    o << "\n/* " << tr["name"].get<std::string>() << " (" << tr["when"].get<std::string>() << "): " << stepsComment(tr)
      << "\n * " << verificationText(tr["verification"]) << " */\n"
      << "static const u32 " << name << "[" << tr["steps"].size() << "][3] PATCHCHECK_UNUSED = {\n";
    for (const json& s : tr["steps"]) {
      std::string op = s["op"];
      if (op == "write" && s.value("interim", false)) {
        o << "\t{ PATCHCHECK_STEP_WRITE_INTERIM | " << s["index"].get<unsigned>() << ", 1, "
          << byteLiteral(*parseBytes(s["code"]).front()) << " },\t/* " << commentSafe(s["text"]) << " */\n";
      } else if (op == "write" && s.contains("state")) {
        // The state's number: its place in the table's states, as declared.
        unsigned first = s["index"], n = s["bytes"], number = 0;
        while (number < t["states"].size() && t["states"][number]["name"] != s["state"]) ++number;
        o << "\t{ PATCHCHECK_STEP_WRITE_STATE | " << first << ", " << n << ", " << number << " },\t/* "
          << (n > 1 ? "bytes " + std::to_string(first) + ".." + std::to_string(first + n - 1) : "byte " + std::to_string(first))
          << " of " << commentSafe(s["state"]) << ": " << commentSafe(s["text"]) << " */\n";
      } else if (op == "write") {
        unsigned first = s["index"], n = s["bytes"];
        o << "\t{ PATCHCHECK_STEP_WRITE_NEW | " << first << ", " << n << ", 0 },\t/* "
          << (n > 1 ? "bytes " + std::to_string(first) + ".." + std::to_string(first + n - 1) : "byte " + std::to_string(first))
          << " of " << commentSafe(to) << ": " << commentSafe(s["text"]) << " */\n";
      } else {
        o << "\t{ PATCHCHECK_STEP_" << upper(op) << ", 0, 0 },\n";
      }
    }
    o << "};\n";
  }
  return o.str();
}

}  // namespace patchcheck
