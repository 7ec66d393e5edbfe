#include "checker/report/CHeader.h"

#include <cctype>
#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <sstream>

#include "checker/report/ByteSiteHeader.h"
#include "checker/report/CFormula.h"
#include "checker/report/PatchTable.h"

namespace patchcheck {
namespace {

using json = nlohmann::json;

uint64_t parseHex(const json& j) { return std::stoull(j.get<std::string>(), nullptr, 16); }

// The C type of a unit of `bytes` bytes.
std::string unitType(unsigned bytes) {
  return bytes <= 1 ? "u8" : bytes <= 2 ? "u16" : bytes <= 4 ? "u32" : "u64";
}

std::string literal(uint64_t v, unsigned bytes, bool suffix = true) {
  char b[40];
  snprintf(b, sizeof b, "0x%0*llx%s", int(2 * bytes), (unsigned long long)v,
           bytes > 4 ? "ull" : suffix ? "u" : "");
  return b;
}

std::string targetTag(const json& t) {
  return cIdentifier(t["isa"].get<std::string>() + "_" + t["abi"].get<std::string>() + "_" +
                     (t["endian"] == "big" ? "be" : "le"));
}

uint64_t lowBits(unsigned width) { return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1; }

// The unit's address-dependent bits as C: each piece the plug-in names
// (Relocation::pieces) cut from the formula's value and moved to its place.
// Nothing when the pieces are missing or do not cover exactly the unit's
// field (field_mask): then no code can be trusted to match the encoder.
std::optional<std::string> fieldExpr(const json& w, const std::string& value, const std::string& type) {
  const json& pieces = w["encoding"].value("pieces", json::array());
  unsigned bytes = w.value("bytes", 4u);
  uint64_t covered = 0, unitMask = lowBits(8 * bytes);
  std::string out;
  for (const json& p : pieces) {
    unsigned from = p["from"], width = p["width"], at = p["at"];
    uint64_t placed = (lowBits(width) << at) & unitMask;
    if (width == 0 || at + width > 8 * bytes || (covered & placed)) return std::nullopt;
    covered |= placed;
    std::string bits = from ? "((" + value + ") >> " + std::to_string(from) + ")" : "(" + value + ")";
    std::string piece = "((" + type + ")" + bits + " & " + literal(lowBits(width), bytes) + ")";
    out += (out.empty() ? "" : " | ") + (at ? "(" + piece + " << " + std::to_string(at) + ")" : piece);
  }
  if (out.empty() || covered != parseHex(w["field_mask"])) return std::nullopt;
  return out;
}

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper((unsigned char)c));
  return s;
}

std::string argumentList(const std::vector<std::string>& params) {
  std::string args;
  for (size_t i = 0; i < params.size(); ++i) args += (i ? ", " : "") + cIdentifier(params[i]);
  return args;
}

// The inline function for one address-dependent unit: fixed bits | field.
std::string encoder(const std::string& fn, const json& w) {
  const json& e = w["encoding"];
  std::string sym = e["symbol"];
  unsigned bytes = w.value("bytes", 4u);
  std::string type = unitType(bytes);
  std::vector<std::string> params = unitParameters(w);
  std::string S = addressExpr(sym, e["addend"].get<int64_t>()), P = "0";
  if (e.contains("slot_symbol")) P = addressExpr(e["slot_symbol"].get<std::string>(), e["slot_addend"].get<int64_t>());
  std::string formula = e.value("formula", "");
  std::string out = "/* " + w["text"].get<std::string>() + " */\n";
  std::optional<std::string> field;
  if (!formula.empty()) field = fieldExpr(w, substitute(formula, S, P), type);
  // The build stops here rather than compute a wrong instruction.
  if (!field)
    return out + "#error \"patchcheck: no C encoder for " + e["kind"].get<std::string>() + " fields (" + fn +
           ")\"\n";
  std::string value = "(" + literal(parseHex(w["fixed"]), bytes) + " | " + *field + ")";
  std::string args = argumentList(params);
  std::string macro = upper(fn);
  // The macro is a constant expression (static initializers) and names its
  // arguments once per piece; the function checks the argument type and
  // evaluates each once.
  out += "#define " + macro + "(" + args + ") \\\n\t" + value + "\nstatic inline " + type + " " + fn + "(";
  for (size_t i = 0; i < params.size(); ++i) out += (i ? ", u64 " : "u64 ") + cIdentifier(params[i]);
  return out + ")\n{\n\treturn " + macro + "(" + args + ");\n}\n";
}

std::string wordLiteral(const json& w) {
  return literal(parseHex(w.contains("word") ? w["word"] : w["fixed"]), w.value("bytes", 4u), false);
}

std::string comment(const json& w, const std::string& fn) {
  std::string c = w["text"];
  if (!w.contains("word")) c += "; depends on an address: " + fn + "()";
  return "/* " + c + " */";
}

// A state with a unit that depends on an address has no array (its fixed
// bits would read as code): an initializer macro, a constant expression
// for static tables, and a function that fills the patcher's buffer.
std::string stateUnits(const std::string& fn, const json& state, const std::vector<std::string>& encoders,
                       const std::string& element, unsigned units) {
  std::vector<std::string> params = stateParameters(state);
  std::string args = argumentList(params), macro = upper(fn);
  std::string out = "/* every unit of the state; those that depend on an address from their encoder */\n";
  out += "#define " + macro + "(" + args + ") { \\\n";
  for (const json& w : state["words"]) {
    unsigned i = w["index"];
    std::string value = !w.contains("word")           ? upper(encoders[i]) + "(" + argumentList(unitParameters(w)) + ")"
                        : w.value("bytes", 4u) > 4 ? wordLiteral(w) + "ull"
                                                   : wordLiteral(w) + "u";
    out += "\t" + value + (i + 1 < units ? "," : "") + "\t/* " + w["text"].get<std::string>() + " */ \\\n";
  }
  out += "}\nstatic inline void " + fn + "(" + element + " code[" + std::to_string(units) + "]";
  for (const std::string& p : params) out += ", u64 " + cIdentifier(p);
  out += ")\n{\n\tconst " + element + " units[" + std::to_string(units) + "] = " + macro + "(" + args +
         ");\n\tunsigned i;\n\n\tfor (i = 0; i < " + std::to_string(units) + "; i++)\n\t\tcode[i] = units[i];\n}\n";
  return out;
}

}  // namespace

std::vector<std::string> unitParameters(const json& w) {
  if (w.contains("word")) return {};
  const json& e = w["encoding"];
  std::vector<std::string> params = {e["symbol"].get<std::string>()};
  if (e.contains("slot_symbol")) {
    std::string slot = e["slot_symbol"];
    if (slot != params[0] && !slot.empty()) params.push_back(slot);
  }
  return params;
}

std::vector<std::string> stateParameters(const json& state) {
  std::vector<std::string> params;
  for (const json& w : state["words"])
    for (const std::string& p : unitParameters(w))
      if (std::find(params.begin(), params.end(), p) == params.end()) params.push_back(p);
  return params;
}

std::string cHeader(const json& table, const std::string& jsonFileName) {
  std::ostringstream o;
  std::string prefix = table["spec"]["prefix"];
  std::string guard = "PATCHCHECK_" + prefix + "_H";
  for (char& c : guard) c = char(std::toupper((unsigned char)c));
  const json& cert = table["certificate"];
  o << "/* SPDX-License-Identifier: GPL-2.0 */\n"
    << "/*\n * Certified patch table for " << table["spec"]["name"].get<std::string>() << ": "
    << table["spec"]["summary"].get<std::string>() << "\n"
    << " * Generated by " << cert["tool"].get<std::string>() << " from " << table["spec"]["path"].get<std::string>()
    << "; do not edit.\n"
    << " * Every state and transition below was proven SAFE; certificate in " << jsonFileName << ".\n"
    << " * spec sha256: " << cert["spec_sha256"].get<std::string>() << "\n"
    << " * instruction table sha256: " << cert["instruction_table_sha256"].get<std::string>() << "\n */\n"
    << "#ifndef " << guard << "\n#define " << guard << "\n\n"
    << "#ifdef __KERNEL__\n#include <linux/types.h>\n#else\n#include <stdint.h>\n"
    << "typedef uint8_t u8;\ntypedef uint16_t u16;\ntypedef uint32_t u32;\ntypedef uint64_t u64;\n#endif\n\n"
    << "#ifndef PATCHCHECK_UNUSED\n"
    << "/* A file that includes this header need not use every table. */\n"
    << "#ifdef __KERNEL__\n#define PATCHCHECK_UNUSED\t__maybe_unused\n#else\n"
    << "#define PATCHCHECK_UNUSED\t__attribute__((unused))\n#endif\n#endif\n\n"
    << "#ifndef PATCHCHECK_STEP_WRITE\n"
    << "/* A transition is an array of steps, { op | word index, word }, in order. */\n"
    << "#define PATCHCHECK_STEP_WRITE\t\t0x01000000u\t/* write the word */\n"
    << "#define PATCHCHECK_STEP_WRITE_ENCODED\t0x02000000u\t/* word = fixed bits; the state's encoder gives the word */\n"
    << "#define PATCHCHECK_STEP_SYNC\t\t0x03000000u\n"
    << "#define PATCHCHECK_STEP_FLUSH\t\t0x04000000u\t/* flush_icache_range() over the site */\n"
    << "#define PATCHCHECK_STEP_WAIT\t\t0x05000000u\t/* synchronize_rcu_tasks() */\n"
    << "#define PATCHCHECK_STEP_DC_CVAU\t0x06000000u\t/* arm64: dc cvau on the word's address */\n"
    << "#define PATCHCHECK_STEP_DSB\t\t0x07000000u\t/* arm64: dsb ish */\n"
    << "#define PATCHCHECK_STEP_IC_IVAU\t0x08000000u\t/* arm64: ic ivau on the word's address */\n"
    << "#define PATCHCHECK_STEP_ISB\t\t0x09000000u\t/* arm64: isb */\n"
    << "#define PATCHCHECK_STEP_IPI\t\t0x0a000000u\t/* arm64: kick_all_cpus_sync(); RISC-V: remote fence.i */\n"
    << "#define PATCHCHECK_STEP_FENCE_W_O\t0x0b000000u\t/* RISC-V: fence w,o */\n"
    << "#define PATCHCHECK_STEP_FENCE_I\t0x0c000000u\t/* RISC-V: fence.i on the writing CPU */\n"
    << "#define PATCHCHECK_STEP_OP(s)\t\t((s) & 0xff000000u)\n"
    << "#define PATCHCHECK_STEP_INDEX(s)\t((s) & 0x00ffffffu)\n#endif\n";
  bool byteSite = table["spec"].contains("bytes");
  if (byteSite) o << byteSiteStepCodes();
  unsigned words = table["spec"].value("units", table["spec"].value("words", table["spec"].value("bytes", 0u)));
  for (const json& t : table["targets"]) {
    std::string tp = prefix + "_" + targetTag(t);
    o << "\n/* " << t["target"].get<std::string>() << " */\n";
    for (const json& k : t.value("trampolines", json::array()))
      o << "/* trampoline " << k["entry"].get<std::string>() << " (" << k["source"].get<std::string>()
        << "): contract " << (k["verdict"] == "SAFE" ? "proven" : "NOT proven") << ", " << k["paths"] << " paths */\n";
    // Regression cases: named so a reader sees they were left out on purpose.
    for (const json& r : t.value("regressions", json::array()))
      o << "/* not certified: " << r.value("kind", "") << " " << r.value("name", "") << " is "
        << r.value("verdict", "") << ", a regression case the spec expects unsafe */\n";
    if (byteSite) {
      o << byteSiteDeclarations(t, tp, words);
      continue;
    }
    std::map<std::string, std::vector<std::string>> encoders;  // state -> function per unit ("" = concrete)
    // Units of other lengths than 4 or before F (data): their offsets from
    // F and lengths, so a patcher knows where each array entry goes.
    unsigned widest = 0;
    bool plain = true;
    const json& first = t["states"].empty() ? json::array() : t["states"][0]["words"];
    for (const json& w : first) {
      widest = std::max(widest, w.value("bytes", 4u));
      plain = plain && w.value("bytes", 4u) == 4 && w.value("offset", 0) >= 0;
    }
    std::string element = unitType(widest ? widest : 4);
    if (!plain) {
      o << "static const int " << tp << "_unit_offset[" << words << "] PATCHCHECK_UNUSED = {";
      for (size_t i = 0; i < first.size(); ++i) o << (i ? ", " : " ") << first[i].value("offset", 0);
      o << " };\nstatic const unsigned " << tp << "_unit_bytes[" << words << "] PATCHCHECK_UNUSED = {";
      for (size_t i = 0; i < first.size(); ++i) o << (i ? ", " : " ") << first[i].value("bytes", 4u);
      o << " };\n";
    }
    // Units stored in another byte order than the target's data (arm64
    // instructions on a big-endian kernel): a patcher must know which.
    bool mixed = false;
    for (const json& w : first) mixed = mixed || w.value("byte_order", t["endian"].get<std::string>()) != t["endian"];
    if (mixed) {
      o << "/* 1: the unit is stored little-endian (cpu_to_le32, as instructions are), 0: big-endian */\n"
        << "static const u8 " << tp << "_unit_little_endian[" << words << "] PATCHCHECK_UNUSED = {";
      for (size_t i = 0; i < first.size(); ++i) o << (i ? ", " : " ") << (first[i]["byte_order"] == "little" ? 1 : 0);
      o << " };\n";
    }
    for (const json& s : t["states"]) {
      std::string st = s["name"];
      o << "\n/* state " << st << ": " << s["behaviour"].get<std::string>() << " */\n";
      for (const json& w : s["words"]) {
        std::string fn = tp + "_" + cIdentifier(st) + "_w" + std::to_string(w["index"].get<unsigned>());
        encoders[st].push_back(w.contains("word") ? "" : fn);
        if (!w.contains("word")) o << encoder(fn, w);
      }
      if (!stateParameters(s).empty()) {
        o << stateUnits(tp + "_" + cIdentifier(st) + "_words", s, encoders[st], element, words);
        continue;
      }
      o << "static const " << element << " " << tp << "_" << cIdentifier(st) << "[" << words
        << "] PATCHCHECK_UNUSED = {\n";
      for (const json& w : s["words"])
        o << "\t" << wordLiteral(w) << ",\t" << comment(w, encoders[st][w["index"].get<unsigned>()]) << "\n";
      o << "};\n";
    }
    for (const json& tr : t["transitions"]) {
      std::string name = tp + "_" + transitionCName(tr["name"].get<std::string>(), tr["from"].get<std::string>(), tr["to"].get<std::string>());
      std::string steps;
      for (const json& s : tr["steps"]) {
        std::string op = s["op"];
        steps += (steps.empty() ? "" : ", ") + op + (s.contains("index") ? " " + std::to_string(s["index"].get<unsigned>()) : "");
      }
      o << "\n/* " << tr["name"].get<std::string>() << " (" << tr["when"].get<std::string>() << "): " << steps
        << "\n * " << verificationText(tr["verification"]) << " */\n";
      unsigned k = 0;
      for (const json& s : tr["steps"]) {  // interim words that depend on an address
        if (s["op"] == "write" && s.value("interim", false) && !s.contains("word"))
          o << encoder(name + "_step" + std::to_string(k), s);
        ++k;
      }
      o << "static const " << (widest > 4 ? "u64 " : "u32 ") << name << "[" << tr["steps"].size()
        << "][2] PATCHCHECK_UNUSED = {\n";
      k = 0;
      for (const json& s : tr["steps"]) {
        std::string op = s["op"];
        if (op == "write") {
          unsigned i = s["index"];
          std::string fn = s.value("interim", false) ? name + "_step" + std::to_string(k)
                                                     : encoders[tr["to"].get<std::string>()][i];
          o << "\t{ " << (s.contains("word") ? "PATCHCHECK_STEP_WRITE" : "PATCHCHECK_STEP_WRITE_ENCODED") << " | "
            << i << ", " << wordLiteral(s) << " },\t" << comment(s, fn) << "\n";
        } else {
          // "dc cvau" -> DC_CVAU; "dsb ish" -> DSB (the only dsb a spec takes);
          // "fence w,o" -> FENCE_W_O, "fence.i" -> FENCE_I
          std::string up = op == "dsb ish" ? "dsb" : op;
          for (char& c : up) c = std::isalnum((unsigned char)c) ? char(std::toupper((unsigned char)c)) : '_';
          std::string index = s.contains("index") ? " | " + std::to_string(s["index"].get<unsigned>()) : "";
          o << "\t{ PATCHCHECK_STEP_" << up << index << ", 0 },\n";
        }
        ++k;
      }
      o << "};\n";
    }
  }
  o << "\n#endif /* " << guard << " */\n";
  return o.str();
}

}  // namespace patchcheck
