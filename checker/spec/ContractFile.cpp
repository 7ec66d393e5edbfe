// Reads a trampoline contract file with toml++. Every problem is collected,
// each at the file:line:column of the key or value at fault; unknown keys
// are errors so a typo never weakens a contract silently.
#include "checker/spec/ContractFile.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>

#include "encoder/IsaRegistry.h"

namespace patchcheck {
namespace {

class ContractReader {
 public:
  ContractReader(std::string_view text, const std::string& path) : text_(text) { out_.path = path; }

  std::variant<ContractFile, Diagnostics> run() {
#if TOML_EXCEPTIONS
    try {
      toml::table root = toml::parse(text_, out_.path);
      load(root);
    } catch (const toml::parse_error& e) {
      error(at(e.source()), "TOML syntax: " + std::string(e.description()));
    }
#else
    toml::parse_result parsed = toml::parse(text_, out_.path);
    if (parsed) load(parsed.table());
    else error(at(parsed.error().source()), "TOML syntax: " + std::string(parsed.error().description()));
#endif
    if (errors_.empty()) return std::move(out_);
    return std::move(errors_);
  }

 private:
  std::string text_;
  ContractFile out_;
  Diagnostics errors_;

  SourceLocation at(const toml::source_region& r) const {
    return {out_.path, std::max(1u, unsigned(r.begin.line)), std::max(1u, unsigned(r.begin.column))};
  }
  SourceLocation at(const toml::node& n) const { return at(n.source()); }
  SourceLocation at(const toml::key& k) const { return at(k.source()); }
  void error(SourceLocation where, std::string message) { errors_.push_back({std::move(where), std::move(message)}); }

  void onlyKeys(const toml::table& t, const std::vector<std::string>& known, const std::string& where) {
    for (auto&& [key, value] : t) {
      (void)value;
      if (std::find(known.begin(), known.end(), key.str()) != known.end()) continue;
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      error(at(key), "unknown key '" + std::string(key.str()) + "' " + where + " (expected one of: " + list + ")");
    }
  }
  std::optional<std::string> string(const toml::node& n, const std::string& what) {
    if (auto* s = n.as_string()) return s->get();
    error(at(n), what + " must be a string");
    return std::nullopt;
  }
  std::optional<int64_t> integer(const toml::node& n, const std::string& what) {
    if (auto* i = n.as_integer()) return i->get();
    error(at(n), what + " must be an integer");
    return std::nullopt;
  }
  std::optional<bool> boolean(const toml::node& n, const std::string& what) {
    if (auto* b = n.as_boolean()) return b->get();
    error(at(n), what + " must be true or false");
    return std::nullopt;
  }
  // An address: an integer, or a "0x..." string for values past TOML's
  // signed integers.
  std::optional<uint64_t> address(const toml::node& n, const std::string& what) {
    if (auto* i = n.as_integer(); i && i->get() >= 0) return uint64_t(i->get());
    if (auto* s = n.as_string()) {
      const std::string& t = s->get();
      try {
        size_t used = 0;
        uint64_t v = std::stoull(t, &used, 0);
        if (used == t.size()) return v;
      } catch (...) {
      }
    }
    error(at(n), what + " must be a non-negative integer or a \"0x...\" string");
    return std::nullopt;
  }
  std::vector<std::string> strings(const toml::node& n, const std::string& what) {
    std::vector<std::string> out;
    const toml::array* a = n.as_array();
    if (!a) {
      error(at(n), what + " must be an array of strings");
      return out;
    }
    for (const toml::node& e : *a)
      if (auto s = string(e, "each entry of " + what)) out.push_back(*s);
    return out;
  }

  void load(const toml::table& root) {
    onlyKeys(root, {"schema", "symbol", "isa", "abi", "entry", "callback", "call_ops", "pt_regs", "symbols"},
             "at the top level");
    SourceLocation top{out_.path, 1, 1};
    if (const toml::node* n = root.get("schema")) {
      if (auto v = integer(*n, "schema"); v && *v != 1) error(at(*n), "contract schema " + std::to_string(*v) + " is not supported (1 is)");
    } else {
      error(top, "missing 'schema = 1'");
    }
    if (const toml::node* n = root.get("symbol")) out_.symbol = string(*n, "symbol").value_or("");
    else error(top, "missing 'symbol' (the label at the file's first word)");
    if (const toml::node* n = root.get("isa"))
      for (const std::string& s : strings(*n, "isa")) {
        if (targetNamed(s)) out_.isas.push_back(s);
        else error(at(*n), "unknown ISA '" + s + "'");
      }
    else error(top, "missing 'isa' (the ISAs the file assembles for)");
    if (const toml::node* n = root.get("abi"))
      for (const std::string& s : strings(*n, "abi")) {
        if (const auto all = abiNames(); std::find(all.begin(), all.end(), s) != all.end()) out_.abis.push_back(s);
        else error(at(*n), "unknown ABI '" + s + "'");
      }
    else error(top, "missing 'abi'");
    TrampolineCallback callback;
    if (const toml::node* n = root.get("callback")) {
      if (const toml::table* t = n->as_table()) loadCallback(*t, callback);
      else error(at(*n), "[callback] must be a table");
    }  // none: the trampoline calls nothing (a direct trampoline that returns)
    if (const toml::node* n = root.get("call_ops")) {
      if (const toml::table* t = n->as_table()) loadCallOps(*t, callback);
      else error(at(*n), "[call_ops] must be a table");
      if (callback.none()) error(at(*n), "[call_ops] needs a [callback] (ops->func)");
    }
    if (const toml::node* n = root.get("pt_regs")) {
      if (const toml::table* t = n->as_table()) {
        for (auto&& [key, value] : *t)
          if (auto off = integer(value, "pt_regs offset of '" + std::string(key.str()) + "'"))
            callback.ptRegs.push_back({std::string(key.str()), *off});
      } else {
        error(at(*n), "[pt_regs] must be a table");
      }
      if (!callback.regs) error(at(*n), "[pt_regs] needs 'regs = true' in [callback]");
    }
    if (const toml::node* n = root.get("symbols")) {
      if (const toml::table* t = n->as_table()) loadSymbols(*t);
      else error(at(*n), "[symbols] must be a table");
    }
    if (const toml::node* n = root.get("entry")) {
      const toml::array* a = n->as_array();
      if (!a || !a->is_array_of_tables()) error(at(*n), "'entry' must be [[entry]] tables");
      else
        for (const toml::node& e : *a) loadEntry(*e.as_table(), callback);
    } else {
      error(top, "missing [[entry]] (where sites enter the trampoline)");
    }
  }

  void loadCallback(const toml::table& t, TrampolineCallback& cb) {
    onlyKeys(t, {"symbol", "ip", "ops", "regs", "writes"}, "in [callback]");
    if (const toml::node* n = t.get("symbol")) cb.symbol = string(*n, "callback symbol").value_or("");
    else error(at(t), "[callback] needs 'symbol'");
    if (const toml::node* n = t.get("ip")) {
      out_.ipWhere = at(*n);
      if (n->is_integer()) {
        cb.ipOffset[""] = n->as_integer()->get();
      } else if (const toml::table* byRegion = n->as_table()) {
        for (auto&& [key, value] : *byRegion)
          if (auto off = integer(value, "ip offset for region '" + std::string(key.str()) + "'"))
            cb.ipOffset[std::string(key.str())] = *off;
      } else {
        error(at(*n), "ip must be an integer (resume address + ip) or a table by region");
      }
    } else {
      error(at(t), "[callback] needs 'ip' (the traced ip as an offset from the resume address)");
    }
    if (const toml::node* n = t.get("ops")) cb.ops = string(*n, "ops");
    if (const toml::node* n = t.get("regs")) cb.regs = boolean(*n, "regs").value_or(false);
    if (const toml::node* n = t.get("writes")) {
      const toml::array* a = n->as_array();
      if (!a || !a->is_array_of_tables()) error(at(*n), "'writes' must be [[callback.writes]] tables");
      else
        for (const toml::node& e : *a) loadRedirect(*e.as_table(), cb);
      if (!cb.regs) error(at(*n), "[[callback.writes]] needs 'regs = true' (the tracer writes through the regs pointer)");
    }
  }

  // One thing the tracer may write in the regs frame: the address of a
  // function that replaces F (enter) or of a direct trampoline (direct).
  void loadRedirect(const toml::table& t, TrampolineCallback& cb) {
    onlyKeys(t, {"at", "enter", "direct", "direct_contract"}, "in [[callback.writes]]");
    TrampolineRedirect r;
    if (const toml::node* n = t.get("at")) r.at = integer(*n, "at").value_or(0);
    else error(at(t), "[[callback.writes]] needs 'at' (the slot's offset from the regs pointer)");
    const toml::node* enter = t.get("enter");
    const toml::node* direct = t.get("direct");
    if (bool(enter) == bool(direct)) error(at(t), "[[callback.writes]] needs exactly one of 'enter' and 'direct'");
    if (enter) r.target = string(*enter, "enter").value_or(""), r.enter = true;
    if (direct) r.target = string(*direct, "direct").value_or("");
    if (const toml::node* n = t.get("direct_contract")) r.contract = string(*n, "direct_contract").value_or("");
    if (direct && r.contract.empty()) error(at(t), "a 'direct' write needs 'direct_contract' (the convention it is handed over with)");
    if (enter && t.get("direct_contract")) error(at(t), "'direct_contract' belongs to a 'direct' write");
    cb.redirects.push_back(r);
  }

  void loadCallOps(const toml::table& t, TrampolineCallback& cb) {
    onlyKeys(t, {"literal", "ops", "func", "direct_call", "direct", "direct_contract"}, "in [call_ops]");
    TrampolineCallOps k;
    if (const toml::node* n = t.get("literal")) k.literal = integer(*n, "literal").value_or(-8);
    else error(at(t), "[call_ops] needs 'literal' (where the ops pointer lies, from F)");
    if (const toml::node* n = t.get("ops")) k.ops = string(*n, "ops").value_or("");
    else error(at(t), "[call_ops] needs 'ops' (a symbol for the struct the literal points to)");
    if (const toml::node* n = t.get("func")) k.func = integer(*n, "func").value_or(0);
    else error(at(t), "[call_ops] needs 'func' (the offset of ops->func)");
    if (const toml::node* n = t.get("direct_call")) k.directCall = integer(*n, "direct_call");
    if (const toml::node* n = t.get("direct")) k.direct = string(*n, "direct").value_or("");
    if (const toml::node* n = t.get("direct_contract")) k.directContract = string(*n, "direct_contract").value_or("");
    if (k.directCall.has_value() != !k.direct.empty() || k.direct.empty() != k.directContract.empty())
      error(at(t), "[call_ops] needs all or none of direct_call, direct and direct_contract");
    cb.callOps = k;
  }

  void loadSymbols(const toml::table& t) {
    for (auto&& [key, value] : t) {
      ContractSymbol s;
      s.name = std::string(key.str());
      s.where = at(key);
      const toml::table* d = value.as_table();
      if (!d) {
        error(at(value), "symbol '" + s.name + "' must be a table ({ in = \"kernel-text\", align = 4 }, ...)");
        continue;
      }
      onlyKeys(*d, {"in", "align", "value", "region_start", "region_end"}, "in symbol '" + s.name + "'");
      int ways = 0;
      if (const toml::node* n = d->get("value")) s.value = address(*n, "value"), ++ways;
      if (const toml::node* n = d->get("in")) s.region = string(*n, "in").value_or(""), ++ways;
      if (const toml::node* n = d->get("region_start")) s.regionStart = string(*n, "region_start").value_or(""), ++ways;
      if (const toml::node* n = d->get("region_end")) s.regionEnd = string(*n, "region_end").value_or(""), ++ways;
      if (const toml::node* n = d->get("align"))
        if (auto a = integer(*n, "align")) {
          if (*a <= 0 || (*a & (*a - 1))) error(at(*n), "align must be a power of two");
          else s.align = uint64_t(*a);
        }
      if (ways != 1) error(s.where, "symbol '" + s.name + "' needs exactly one of value, in, region_start, region_end");
      out_.symbols.push_back(s);
    }
  }

  // "[rsp]" or "[rsp+8]": the resume address lies in memory at the
  // register's entry value plus the offset (x86: the call pushed it).
  void resumeSlot(const toml::node& n, TrampolineContract& k) {
    std::string inside = k.resume.size() > 2 && k.resume.back() == ']' ? k.resume.substr(1, k.resume.size() - 2) : "";
    size_t sign = inside.find_first_of("+-");
    std::string reg = inside.substr(0, sign);
    int64_t offset = 0;
    bool ok = !reg.empty();
    if (ok && sign != std::string::npos) {
      try {
        size_t used = 0;
        offset = std::stoll(inside.substr(sign), &used, 0);
        ok = used == inside.size() - sign;
      } catch (...) {
        ok = false;
      }
    }
    if (!ok) {
      error(at(n), "resume must be a register or a stack slot \"[sp]\" / \"[sp+N]\", not '" + k.resume + "'");
      return;
    }
    k.resume = reg;
    k.resumeSlot = offset;
  }

  void loadEntry(const toml::table& t, const TrampolineCallback& cb) {
    onlyKeys(t, {"offset", "resume", "saved_ra", "stack_adjust", "mode", "clobbers", "values"}, "in [[entry]]");
    TrampolineContract k;
    k.symbol = out_.symbol;
    k.callback = cb;
    if (const toml::node* n = t.get("offset")) k.entryOffset = integer(*n, "offset").value_or(0);
    if (k.entryOffset < 0 || k.entryOffset % 4) error(at(t), "entry offset must be a non-negative multiple of 4");
    if (const toml::node* n = t.get("resume")) {
      k.resume = string(*n, "resume").value_or("");
      if (!k.resume.empty() && k.resume.front() == '[') resumeSlot(*n, k);
    } else {
      error(at(t), "[[entry]] needs 'resume' (the register holding the resume address, or \"[rsp]\")");
    }
    if (const toml::node* n = t.get("saved_ra")) k.savedRa = string(*n, "saved_ra");
    if (const toml::node* n = t.get("stack_adjust")) k.stackAdjust = integer(*n, "stack_adjust").value_or(0);
    if (const toml::node* n = t.get("clobbers")) k.clobbers = strings(*n, "clobbers");
    if (const toml::node* n = t.get("values")) {
      if (const toml::table* v = n->as_table()) {
        for (auto&& [key, value] : *v) {
          std::vector<uint64_t> allowed;
          const toml::array* a = value.as_array();
          if (!a || a->empty()) error(at(value), "values of '" + std::string(key.str()) + "' must be a non-empty array of integers");
          else
            for (const toml::node& e : *a)
              if (auto x = integer(e, "each value of '" + std::string(key.str()) + "'")) allowed.push_back(uint64_t(*x));
          k.values.push_back({std::string(key.str()), allowed});
        }
      } else {
        error(at(*n), "values must be a table { btype = [0, 1] }");
      }
    }
    if (const toml::node* n = t.get("mode")) {
      if (const toml::table* m = n->as_table()) {
        onlyKeys(*m, {"register", "regs", "noregs"}, "in mode");
        TrampolineMode mode;
        if (const toml::node* r = m->get("register")) mode.reg = string(*r, "mode register").value_or("");
        else error(at(*n), "mode needs 'register'");
        if (const toml::node* r = m->get("regs")) mode.regs = uint64_t(integer(*r, "regs").value_or(0));
        if (const toml::node* r = m->get("noregs")) mode.noregs = uint64_t(integer(*r, "noregs").value_or(1));
        if (mode.regs == mode.noregs) error(at(*n), "mode values for regs and noregs must differ");
        k.mode = mode;
      } else {
        error(at(*n), "mode must be a table { register = \"t0\", regs = 0, noregs = 1 }");
      }
    }
    for (const TrampolineContract& other : out_.entries)
      if (other.entryOffset == k.entryOffset) error(at(t), "two entries at offset " + std::to_string(k.entryOffset));
    out_.entries.push_back(k);
    out_.entryWhere.push_back(at(t));
  }
};

}  // namespace

bool ContractFile::supports(const Target& t) const {
  return std::find(isas.begin(), isas.end(), t.variantName()) != isas.end() &&
         std::find(abis.begin(), abis.end(), t.abiName()) != abis.end();
}

std::variant<ContractFile, Diagnostics> parseContractFile(std::string_view text, const std::string& path) {
  return ContractReader(text, path).run();
}

std::variant<ContractFile, Diagnostics> loadContractFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Diagnostics{{{path, 1, 1}, "cannot read the contract file"}};
  std::stringstream ss;
  ss << in.rdbuf();
  return parseContractFile(ss.str(), path);
}

}  // namespace patchcheck
