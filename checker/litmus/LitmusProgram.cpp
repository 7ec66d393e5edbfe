#include "checker/litmus/LitmusProgram.h"

#include <algorithm>
#include <functional>
#include <set>

#include "checker/spec/FetchRegistry.h"
#include "encoder/Assembly.h"
#include "encoder/Isa.h"
#include "model/IsaModel.h"

namespace patchcheck::litmus {

namespace {

// Where things lie: apart enough that no branch or label of one thread
// lands in another's code by accident.
constexpr uint64_t kCodeBase = 0x400000, kHandlerBase = kCodeBase + 0x8000, kThreadStride = 0x10000;  // a handler within ADR reach of its thread
constexpr uint64_t kDataBase = 0x200000, kLocationStride = 0x40;  // a cache line each

// Meta lines herd7 acts on that this runner does not model (herdtools7
// lib/miscParser.ml's keys as herd7 reads them for AArch64): TTHM (the
// hardware update of page-table dirty bits), el0 and user (threads at
// EL0), Unroll (herd7's bound on loop unrolling, which decides what a
// looping test answers). Every other key herd7 ignores, and so does the
// runner: Hash (a checksum), Stable and Align (read by litmus7 only),
// MemoryType and MT (not read for AArch64), and what diy writes to say how
// a test was made (Cycle, Generator, Prefetch, Com, Orig, ...). herd7
// reads keys in any case (MiscParser.key_match).
const std::set<std::string> kRefusedMeta{"tthm", "el0", "user", "unroll"};

std::string folded(std::string s) {
  for (char& c : s) c = char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

SourceLocation where(const Test& t, Position p) { return {t.file, p.line, p.column}; }

Diagnostic refuse(const Test& t, Position p, const std::string& feature) {
  return {where(t, p), feature + ": outside what patchcheck's litmus runner models (docs/litmus.md)"};
}

// One instruction's encoding at `address`, or why not.
std::variant<uint32_t, std::string> encode(const Target& target, const std::string& text, uint64_t address) {
  AssemblyOptions o;
  o.target = target;
  o.base = Value::constant(int64_t(address));
  auto r = target.isa->assemble(text + "\n", "<value>", o);
  if (auto* d = std::get_if<Diagnostics>(&r)) return d->empty() ? "cannot assemble" : d->front().message;
  const patchcheck::Program& p = std::get<patchcheck::Program>(r);
  if (p.units.size() != 1 || p.units[0].bytes != 4 || !p.units[0].isConcrete())
    return "'" + text + "' is not one instruction";
  return uint32_t(p.units[0].bits);
}

// herd7 lets a bare instruction name (NOP) stand for its encoding; any
// other bare name is a data location.
bool instructionName(const Target& target, const std::string& name) {
  return std::holds_alternative<uint32_t>(encode(target, name, 0));
}

}  // namespace

std::variant<uint64_t, Diagnostics> valueOf(const InitValue& v, const Program& p) {
  auto fail = [&](const std::string& m) { return Diagnostics{{{p.file, v.at.line, v.at.column}, m}}; };
  switch (v.kind) {
    case InitValue::Kind::Number: return v.number;
    case InitValue::Kind::Label: {
      auto it = p.labels.find(v.text);
      if (it == p.labels.end()) return fail("unknown code label '" + v.text + "'");
      return it->second;
    }
    case InitValue::Kind::Location: {
      auto it = p.locations.find(v.text);
      if (it != p.locations.end()) return it->second;
      if (instructionName(p.target, v.text)) return uint64_t(std::get<uint32_t>(encode(p.target, v.text, 0)));
      return fail("unknown location '" + v.text + "'");
    }
    case InitValue::Kind::Instruction: {
      // Position-independent as herd7 encodes it: "B .+12" is the branch 12
      // bytes ahead of wherever it is stored.
      auto e = encode(p.target, v.text, 0);
      if (auto* why = std::get_if<std::string>(&e)) return fail("instruction '" + v.text + "': " + *why);
      return uint64_t(std::get<uint32_t>(e));
    }
  }
  return fail("unknown value");
}

std::variant<Program, Diagnostics> layOut(const Test& t, const FetchRules* fetch) {
  Program p;
  p.file = t.file;
  Diagnostics errors;
  // The plug-in the header named: its target, its fetch model.
  if (!t.dialect) return Diagnostics{{where(t, {1, 1}), "architecture '" + t.arch + "' has no litmus support"}};
  p.target = t.dialect->target();
  const IsaModel& model = modelOf(p.target);
  p.fetch = fetch ? fetch : fetchModelNamed(t.dialect->fetchModel());
  if (!p.fetch || p.fetch->litmusFetch() == FetchRules::LitmusFetch::None)
    errors.push_back(refuse(t, {1, 1}, "the fetch model '" + std::string(p.fetch ? p.fetch->name() : t.dialect->fetchModel()) +
                                           "' of " + t.arch + " tests"));
  else if (!allowsFetchModel(*p.target.isa, *p.fetch))
    errors.push_back({where(t, {1, 1}), "fetch model '" + std::string(p.fetch->name()) + "' is not one of " + t.arch +
                                            "'s (" + fetchModelsText(*p.target.isa) + ")"});
  if (p.target.isa->patchUnitBytes(p.target) != 4)
    errors.push_back(refuse(t, {1, 1}, t.arch + " instructions that are not 4-byte words"));
  if (!errors.empty()) return errors;

  for (const auto& [key, value] : t.meta) {
    std::string k = folded(key);
    // A test whose meta was set by a program (not read) has no position.
    Position at = t.metaAt.count(key) ? t.metaAt.at(key) : Position{1, 1};
    if (k == "cachetype" && !p.fetch->takesCacheType()) {
      errors.push_back(refuse(t, at, key + "=" + value + " (no cache type under fetch = \"" +
                                         std::string(p.fetch->name()) + "\")"));
    } else if (k == "cachetype") {
      std::string v = value;
      bool dic = v.find("DIC") != std::string::npos, idc = v.find("IDC") != std::string::npos;
      std::string rest = v;
      for (const char* w : {"DIC", "IDC"})
        if (auto at = rest.find(w); at != std::string::npos) rest.erase(at, 3);
      if (rest.find_first_not_of(" ,") != std::string::npos)
        errors.push_back(refuse(t, at, key + "=" + value));
      // DIC without IDC is not one of herd7's catalogue cases; DIC implies
      // coherent fetches either way.
      p.cacheType = dic ? CacheType::Dic1Idc1 : idc ? CacheType::Dic0Idc1 : CacheType::Dic0Idc0;
    } else if (k == "variant") {
      if (value != "self") errors.push_back(refuse(t, at, key + "=" + value));
    } else if (kRefusedMeta.count(k)) {
      errors.push_back(refuse(t, at, "the meta line " + key + "=" + value + " (herd7 acts on it)"));
    }
  }

  // Code: each thread at its base, its handler (P<N>.F) apart.
  std::map<unsigned, size_t> threadOf;  // N -> index into p.threads
  for (const Thread& th : t.threads)
    if (!th.faultHandler) {
      if (threadOf.count(th.number)) errors.push_back({where(t, th.at), "thread " + th.name + " appears twice"});
      threadOf[th.number] = p.threads.size();
      ThreadCode c;
      c.name = th.name, c.number = th.number;
      p.threads.push_back(c);
    }
  struct Pending {
    const Thread* th;
    size_t index;   // into p.threads
    uint64_t base;
  };
  std::vector<Pending> columns;
  for (const Thread& th : t.threads) {
    auto it = threadOf.find(th.number);
    if (it == threadOf.end()) {
      errors.push_back({where(t, th.at), "fault handler " + th.name + " has no thread P" + std::to_string(th.number)});
      continue;
    }
    uint64_t base = (th.faultHandler ? kHandlerBase : kCodeBase) + kThreadStride * th.number;
    if (th.faultHandler) {
      p.threads[it->second].hasHandler = true;
      p.threads[it->second].handler = base;
    } else {
      p.threads[it->second].base = base;
    }
    columns.push_back({&th, it->second, base});
  }
  // Labels first (every instruction is one word), so a handler can name
  // its thread's labels (ADR X9, l0).
  for (const Pending& c : columns) {
    uint64_t at = c.base;
    for (const Instruction& in : c.th->code) {
      for (const std::string& l : in.labels) {
        std::string key = c.th->name + ":" + l;
        if (p.labels.count(key)) errors.push_back({where(t, in.at), "label '" + l + "' defined twice in " + c.th->name});
        p.labels[key] = at;
      }
      if (!in.text.empty()) at += 4;
    }
    if (!c.th->faultHandler) p.threads[c.index].end = at;
  }
  for (const Pending& c : columns) {
    std::string source;
    std::vector<const Instruction*> lineOf{nullptr};  // generated line -> test instruction (1-based)
    std::set<std::string> local;
    for (const Instruction& in : c.th->code) {
      for (const std::string& l : in.labels) {
        source += l + ":\n";
        lineOf.push_back(&in);
        local.insert(l);
      }
      if (in.text.empty()) continue;
      source += in.text + "\n";
      lineOf.push_back(&in);
    }
    AssemblyOptions o;
    o.target = p.target;
    o.base = Value::constant(int64_t(c.base));
    if (c.th->faultHandler) {
      std::string parent = "P" + std::to_string(c.th->number) + ":";
      for (const auto& [key, address] : p.labels)
        if (key.rfind(parent, 0) == 0 && !local.count(key.substr(parent.size())))
          o.symbols[key.substr(parent.size())] = address;
    }
    auto r = p.target.isa->assemble(source, t.file, o);
    if (auto* d = std::get_if<Diagnostics>(&r)) {
      for (const Diagnostic& e : *d) {
        const Instruction* in = e.where.line < lineOf.size() ? lineOf[e.where.line] : nullptr;
        errors.push_back({in ? where(t, in->at) : where(t, c.th->at), e.message});
      }
      continue;
    }
    const auto& units = std::get<patchcheck::Program>(r).units;
    std::vector<const Instruction*> texts;
    for (const Instruction& in : c.th->code)
      if (!in.text.empty()) texts.push_back(&in);
    if (units.size() != texts.size()) {
      errors.push_back({where(t, c.th->at), c.th->name + ": each line must be exactly one instruction"});
      continue;
    }
    for (size_t k = 0; k < units.size(); ++k) {
      if (units[k].bytes != 4 || !units[k].isConcrete()) {
        errors.push_back(refuse(t, texts[k]->at, "'" + texts[k]->text + "' (not one instruction word)"));
        continue;
      }
      p.code.push_back({c.base + 4 * k, uint32_t(units[k].bits), unsigned(c.index), texts[k]->text, texts[k]->at});
    }
  }
  std::sort(p.code.begin(), p.code.end(), [](const CodeUnit& a, const CodeUnit& b) { return a.address < b.address; });
  for (unsigned i = 0; i < p.code.size(); ++i) p.codeAt[p.code[i].address] = i;

  // Data locations: every bare name that is not an instruction's.
  auto location = [&](const std::string& name) {
    if (p.locations.count(name)) return;
    uint64_t a = kDataBase + kLocationStride * p.locations.size();
    p.locations[name] = a;
    p.initialData[a] = 0;
  };
  for (const InitEntry& e : t.init) {
    // PTE(...), not an instruction's text (RISC-V's `lw s0, 0(a4)`).
    bool pte = e.value.kind != InitValue::Kind::Instruction && e.value.text.find('(') != std::string::npos;
    if (e.name.rfind("pte_", 0) == 0 || pte) {
      errors.push_back(refuse(t, e.at, "page-table entries (" + e.name + ")"));
      continue;
    }
    if (!e.thread) location(e.name);
    if (e.value.kind == InitValue::Kind::Location && !instructionName(p.target, e.value.text)) location(e.value.text);
  }
  std::vector<const Prop*> atoms;
  std::function<void(const Prop&)> walk = [&](const Prop& q) {
    if (q.kind == Prop::Kind::Eq) atoms.push_back(&q);
    for (const auto& a : q.args) walk(*a);
  };
  if (t.condition && t.condition->prop) walk(*t.condition->prop);
  for (const Prop* a : atoms)
    if (!a->thread) location(a->name);
  for (const std::string& l : t.locations)
    if (l.find(':') == std::string::npos) location(l);
  if (!errors.empty()) return errors;

  for (const InitEntry& e : t.init) {
    auto v = valueOf(e.value, p);
    if (auto* d = std::get_if<Diagnostics>(&v)) {
      errors.insert(errors.end(), d->begin(), d->end());
      continue;
    }
    uint64_t value = std::get<uint64_t>(v);
    if (!e.thread) {
      p.initialData[p.locations.at(e.name)] = value;
      continue;
    }
    auto it = threadOf.find(*e.thread);
    auto named = t.dialect->registerNamed(e.name);
    auto r = named ? model.parseRegister(named->model, p.target) : std::nullopt;
    if (it == threadOf.end()) errors.push_back({where(t, e.at), "no thread P" + std::to_string(*e.thread)});
    else if (!r) errors.push_back(refuse(t, e.at, "register " + e.name + " (not a " + t.arch + " litmus register)"));
    else p.threads[it->second].regs[*r] = value;
  }
  for (const Prop* a : atoms)
    if (a->thread && !threadOf.count(*a->thread))
      errors.push_back({where(t, a->at), "no thread P" + std::to_string(*a->thread)});
  if (!errors.empty()) return errors;
  return p;
}

}  // namespace patchcheck::litmus
