#include "checker/litmus/LitmusRun.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_set>

#include "checker/explore/CacheMaintenance.h"
#include "checker/litmus/LitmusProgram.h"
#include "checker/litmus/LitmusStep.h"
#include "model/IsaModel.h"

namespace patchcheck::litmus {

namespace {

// A store on its way to memory: it leaves its CPU's buffer when no store
// to the same bytes and no store before a barrier of its CPU is older.
struct Store {
  uint64_t address = 0;
  unsigned bytes = 0;
  uint64_t value = 0;     // little-endian: byte k is (value >> 8k)
  unsigned fence = 0;     // store barriers its CPU had executed before it
  unsigned version = 0;   // Ziccif: the code version it made when it ran (0: none)
};

// A version of an instruction word in memory, with the fetch view of
// every word at the moment it got there: a fetch that returns it happens
// no earlier, so from then on the CPU's fetches see no older view.
struct Version {
  uint32_t value = 0;
  std::shared_ptr<const std::vector<unsigned>> view;  // never changed once made: copies share it
  unsigned viewId = 0;  // one number per distinct view in a test (Runner::viewIds_), for the state key
  bool propagated = true;  // Ziccif: it has reached memory (a version of a store still buffered: false)
};

struct CpuState {
  uint64_t pc = 0;
  std::vector<uint64_t> regs;        // the plug-in's register file (flags as 0/1)
  std::vector<unsigned> base;        // per code word: the oldest version its next fetch may return
  std::vector<Store> buffer;
  unsigned fences = 0;
  uint64_t elr = 0;                  // where an exception return goes
  // A load not yet ordered before later accesses (no dmb or dsb since):
  // Arm may satisfy a later access first, this runner never does, so a
  // later access to another address is refused rather than answered.
  std::optional<uint64_t> unorderedLoad;
  // Words loaded since the last dmb (full) or dsb: a dc cvau or ic ivau of
  // another address may be performed before such a load (one of the same
  // address is ordered after it), which this runner does not model.
  std::set<uint64_t> loadsSinceFull;
  bool inHandler = false, done = false;
  unsigned steps = 0;
};

// Bytes by address, sorted in one vector: a World is copied for every
// event, and one block copies faster than a tree.
class Bytes {
 public:
  uint8_t& operator[](uint64_t a) {
    auto it = std::lower_bound(v_.begin(), v_.end(), a, before);
    if (it == v_.end() || it->first != a) it = v_.insert(it, {a, 0});
    return it->second;
  }
  const uint8_t* find(uint64_t a) const {
    auto it = std::lower_bound(v_.begin(), v_.end(), a, before);
    return it != v_.end() && it->first == a ? &it->second : nullptr;
  }
  uint8_t at(uint64_t a) const {
    if (const uint8_t* b = find(a)) return *b;
    throw std::out_of_range("no byte at this address");
  }
  const std::vector<std::pair<uint64_t, uint8_t>>& pairs() const { return v_; }

 private:
  static bool before(const std::pair<uint64_t, uint8_t>& p, uint64_t a) { return p.first < a; }
  std::vector<std::pair<uint64_t, uint8_t>> v_;
};

struct World {
  Bytes memory;  // every byte of code and data locations
  std::vector<std::shared_ptr<const std::vector<Version>>> code;  // per word; a store makes a new list (copies share them)
  // Ziccif: per word, the version memory holds (the code list has every
  // store that ran, in the order they ran, whether in memory yet or not).
  std::vector<unsigned> inMemory;
  CacheMaintenance cache;
  std::vector<CpuState> cpus;

  explicit World(CacheType t) : cache(t) {}

  // Equal keys, equal futures: the memo of explored states. Each number
  // is written in 7-bit groups, the high bit marking that more follow: a
  // prefix code, so the key stays one-to-one with the state, and most
  // numbers here (versions, counts, small register values) take one byte
  // instead of eight, which halves hashing and comparing keys.
  std::string key() const {
    std::string k;
    k.reserve(256);
    auto put = [&](uint64_t v) {
      char bytes[10];
      unsigned n = 0;
      for (; v >= 0x80; v >>= 7) bytes[n++] = char(0x80 | (v & 0x7f));
      bytes[n++] = char(v);
      k.append(bytes, n);
    };
    put(memory.pairs().size());
    for (const auto& [a, b] : memory.pairs()) k.push_back(char(b));
    for (const auto& versions : code) {
      put(versions->size());
      for (const Version& v : *versions) put(v.value), put(v.viewId), put(v.propagated);
    }
    for (unsigned v : inMemory) put(v);
    cache.appendKey(k);
    for (const CpuState& c : cpus) {
      put(c.pc), put(c.elr), put(c.fences), put(c.inHandler * 2 + c.done);
      put(c.unorderedLoad.value_or(~uint64_t(0))), put(c.loadsSinceFull.size());
      for (uint64_t a : c.loadsSinceFull) put(a);
      for (uint64_t r : c.regs) put(r);
      for (unsigned b : c.base) put(b);
      put(c.buffer.size());
      for (const Store& s : c.buffer) put(s.address), put(s.bytes), put(s.value), put(s.fence), put(s.version);
    }
    return k;
  }
};

class Runner {
 public:
  Runner(const Test& t, const Program& p, StepSemantics& semantics, const Limits& l)
      : t_(t), p_(p), limits_(l), isa_(modelOf(p.target)), regs_(isa_.registers(p.target)), semantics_(semantics) {}

  std::variant<LitmusResult, Diagnostics> run() {
    World w(p_.cacheType);
    w.inMemory.assign(p_.code.size(), 0);
    auto none = std::make_shared<const std::vector<unsigned>>(p_.code.size(), 0);
    none_ = none;
    viewIds_.emplace(*none, 0);
    for (const CodeUnit& cw : p_.code) {
      w.code.push_back(std::make_shared<const std::vector<Version>>(1, Version{cw.initial, none}));
      for (unsigned k = 0; k < 4; ++k) w.memory[cw.address + k] = uint8_t(cw.initial >> (8 * k));
    }
    for (const auto& [a, v] : p_.initialData)
      for (unsigned k = 0; k < 8; ++k) w.memory[a + k] = uint8_t(v >> (8 * k));
    for (const ThreadCode& tc : p_.threads) {
      CpuState c;
      c.pc = tc.base;
      c.regs.assign(regs_.size(), 0);
      for (const auto& [r, v] : tc.regs) c.regs[r] = v;
      c.base.assign(p_.code.size(), 0);
      c.done = tc.base == tc.end;
      w.cpus.push_back(std::move(c));
    }
    explore(std::move(w));
    if (!errors_.empty()) return errors_;
    return result();
  }

 private:
  const Test& t_;
  const Program& p_;
  Limits limits_;
  const IsaModel& isa_;
  const std::vector<RegisterInfo>& regs_;
  StepSemantics& semantics_;
  std::map<std::vector<unsigned>, unsigned> viewIds_;  // every view a version was made with -> its number
  std::shared_ptr<const std::vector<unsigned>> none_;  // the view of no version seen
  Diagnostics errors_;
  std::unordered_set<std::string> seen_;
  std::set<std::map<std::string, uint64_t>> finals_;

  bool dic() const { return p_.cacheType == CacheType::Dic1Idc1; }
  // Arm: fetches through the cache maintenance; else (RISC-V) from memory.
  bool armCache() const { return p_.fetch->litmusFetch() == FetchRules::LitmusFetch::ArmCache; }
  // Does a fetch raise the CPU's base to the view its version was made
  // with? Always under Arm (DIC = 0: the floor when the version reached
  // memory); under a memory model only when it is coherent (Ziccid).
  bool fetchRaisesBase() const {
    ModelSpec m;
    m.cacheType = p_.cacheType;
    return armCache() || p_.fetch->coherent(m);
  }
  // Ziccif: nothing orders a fetch with a store but FENCE.I, so a fetch may
  // return a store that has run and reached no other hart's loads yet
  // (herd's Ziccif-only CoFR+fencei): every store to code is a version
  // from the moment it runs; reaching memory only decides what a later
  // FENCE.I sees.
  bool fetchesUnpropagated() const { return !armCache() && !fetchRaisesBase(); }

  void refuse(Position at, const std::string& what) {
    if (errors_.empty()) errors_.push_back({{t_.file, at.line, at.column}, what});
  }
  Position threadAt(unsigned cpu) const {
    for (const Thread& th : t_.threads)
      if (th.name == p_.threads[cpu].name) return th.at;
    return {1, 1};
  }

  // What a fetch may not go below from now on, per word: under DIC = 0 the
  // floor cache maintenance left; under DIC = 1 (fetches coherent with
  // data) the version in memory.
  std::vector<unsigned> view(const World& w) const {
    std::vector<unsigned> v(w.code.size());
    for (unsigned i = 0; i < v.size(); ++i)
      v[i] = fetchesUnpropagated()   ? w.inMemory[i]
             : dic() || !armCache() ? unsigned(w.code[i]->size()) - 1
                                    : w.cache.floor(i);
    return v;
  }

  std::optional<unsigned> codeUnit(uint64_t address) const {
    auto it = p_.codeAt.find(address & ~uint64_t(3));
    if (it == p_.codeAt.end()) return std::nullopt;
    return it->second;
  }

  // ---- the search: every event of every state, each state once
  void explore(World start) {
    std::vector<World> stack;
    stack.push_back(std::move(start));
    while (!stack.empty() && errors_.empty()) {
      World w = std::move(stack.back());
      stack.pop_back();
      if (!seen_.insert(w.key()).second) continue;
      if (seen_.size() > limits_.maxStates) {
        refuse({1, 1}, "more than " + std::to_string(limits_.maxStates) + " states: the test is too large to answer");
        return;
      }
      bool any = false;
      for (unsigned c = 0; c < w.cpus.size(); ++c) {
        for (size_t k = 0; k < w.cpus[c].buffer.size(); ++k)
          if (drainable(w.cpus[c], k)) {
            World n = w;
            drain(n, c, k);
            stack.push_back(std::move(n));
            any = true;
          }
        if (!w.cpus[c].done) any |= execute(w, c, stack);
      }
      if (!any) finish(w);
    }
  }

  static bool overlaps(const Store& a, uint64_t address, unsigned bytes) {
    return a.address < address + bytes && address < a.address + a.bytes;
  }

  bool drainable(const CpuState& c, size_t k) const {
    const Store& s = c.buffer[k];
    for (size_t j = 0; j < k; ++j)
      if (c.buffer[j].fence < s.fence || overlaps(c.buffer[j], s.address, s.bytes)) return false;
    return true;
  }

  void drain(World& w, unsigned cpu, size_t k) {
    Store s = w.cpus[cpu].buffer[k];
    w.cpus[cpu].buffer.erase(w.cpus[cpu].buffer.begin() + long(k));
    for (unsigned b = 0; b < s.bytes; ++b) w.memory[s.address + b] = uint8_t(s.value >> (8 * b));
    w.cache.storeSeen(cpu, s.fence);
    for (uint64_t a = s.address & ~uint64_t(3); a < s.address + s.bytes; a += 4) {
      auto word = codeUnit(a);
      if (!word) continue;
      if (s.address != a || s.bytes != 4) {
        refuse(p_.code[*word].at, "a store of " + std::to_string(s.bytes) + " bytes over part of an instruction");
        return;
      }
      if (fetchesUnpropagated()) {
        w.inMemory[*word] = s.version;
        auto marked = std::make_shared<std::vector<Version>>(*w.code[*word]);
        (*marked)[s.version].propagated = true;
        w.code[*word] = marked;
        continue;
      }
      auto grown = std::make_shared<std::vector<Version>>(*w.code[*word]);
      grown->push_back({uint32_t(s.value), nullptr});
      w.code[*word] = grown;  // the view below counts the new version
      std::vector<unsigned> seen = view(w);
      grown->back().viewId = viewIds_.emplace(seen, unsigned(viewIds_.size())).first->second;
      grown->back().view = std::make_shared<const std::vector<unsigned>>(std::move(seen));
    }
  }

  // The bytes a load of this CPU reads: its own youngest buffered store
  // to them, else memory.
  uint8_t readByte(const World& w, const CpuState& c, uint64_t a) const {
    for (size_t k = c.buffer.size(); k-- > 0;)
      if (overlaps(c.buffer[k], a, 1)) return uint8_t(c.buffer[k].value >> (8 * (a - c.buffer[k].address)));
    const uint8_t* b = w.memory.find(a);
    return b ? *b : 0;
  }

  bool execute(const World& w, unsigned cpu, std::vector<World>& stack) {
    const CpuState& c = w.cpus[cpu];
    auto word = codeUnit(c.pc);
    if (!word || (c.pc & 3)) {
      refuse(threadAt(cpu), p_.threads[cpu].name + " runs at 0x" + hex(c.pc) + ", outside the test's code");
      return false;
    }
    if (c.steps >= limits_.maxThreadSteps) {
      refuse(threadAt(cpu), p_.threads[cpu].name + " runs more than " + std::to_string(limits_.maxThreadSteps) +
                                " instructions");
      return false;
    }
    bool any = false;
    const std::vector<Version>& versions = *w.code[*word];
    for (unsigned v = c.base[*word]; v < versions.size() && errors_.empty(); ++v) {
      World n = w;
      CpuState& nc = n.cpus[cpu];
      if (fetchRaisesBase())
        for (unsigned i = 0; i < nc.base.size(); ++i) nc.base[i] = std::max(nc.base[i], (*versions[v].view)[i]);
      if (step(n, cpu, versions[v].value, *word, versions[v].propagated)) {
        stack.push_back(std::move(n));
        any = true;
      }
    }
    return any;
  }

  static std::string hex(uint64_t v) {
    char b[20];
    snprintf(b, sizeof b, "%llx", (unsigned long long)v);
    return b;
  }

  // Runs `value` as CPU `cpu`'s next instruction; false when it cannot run
  // yet (a barrier waiting for the CPU's stores to reach memory).
  // `propagated`: the version fetched has reached memory.
  bool step(World& w, unsigned cpu, uint32_t value, unsigned word, bool propagated) {
    CpuState& c = w.cpus[cpu];
    const CodeUnit& at = p_.code[word];
    Bytes visible;  // memory as this CPU reads it, made only for a step that may load
    const StepOutcome& after = semantics_.step(value, c.pc, c.regs, [&]() -> const StepSemantics::Memory& {
      visible = w.memory;  // its youngest buffered store over each byte
      for (const Store& st : c.buffer)
        for (unsigned b = 0; b < st.bytes; ++b) visible[st.address + b] = uint8_t(st.value >> (8 * b));
      return visible.pairs();
    });

    // Zifencei: a fetch is ordered before the memory accesses of its own
    // instruction, which a later fence.i orders before later fetches; a
    // store such a fetch read is one the hart has seen, so it is in memory
    // (herd's Ziccif-only CoFF+load-fencei, MP.FF+load-fencei).
    if (!propagated && (!after.loaded.empty() || !after.storedBytes.empty())) return false;
    // Memory-model events first: may it run now?
    std::optional<uint64_t> returnAddress;
    bool context = false;
    for (const StepEffect& fx : after.effects) {
      const std::optional<uint64_t>& address = fx.address;
      switch (fx.ordering) {
        case Ordering::Full: case Ordering::Completion:
          if (!c.buffer.empty()) return false;  // its stores reach memory first
          break;
        case Ordering::CleanToUnification: case Ordering::InvalidateInstruction:
          if (address && std::any_of(c.loadsSinceFull.begin(), c.loadsSinceFull.end(),
                                      [&](uint64_t a) { return a != (*address & ~uint64_t(3)); })) {
            refuse(at.at, "'" + at.text + "' after a load with no dmb or dsb between: the maintenance may be "
                          "performed before the load, which this runner does not model");
            return false;
          }
          if (fx.ordering == Ordering::CleanToUnification)
            for (const Store& st : c.buffer)
              if (address && overlaps(st, *address & ~uint64_t(3), 4)) return false;  // cleans its own store
          break;
        case Ordering::None:
          if (fx.kind == EffectKind::ExceptionReturn) break;  // the Eret fault below
          refuse(at.at, "'" + at.text + "' (" + fx.what + ")");
          return false;
        default: break;
      }
    }
    // Loads run in order, which Arm does not promise without a barrier.
    std::vector<uint64_t> accesses;
    for (const std::optional<uint64_t>& a : after.loaded)
      if (a) accesses.push_back(*a);
    for (uint64_t a : after.storedBytes) accesses.push_back(a & ~uint64_t(7));
    if (c.unorderedLoad)
      for (uint64_t a : accesses)
        if ((a & ~uint64_t(7)) != *c.unorderedLoad) {
          refuse(at.at, "'" + at.text + "' accesses memory after a load with no barrier between (dmb ld, dmb, dsb): "
                        "Arm may reorder them, this runner runs loads in order");
          return false;
        }
    if (!after.loaded.empty()) {
      for (const std::optional<uint64_t>& a : after.loaded)
        if (a) c.loadsSinceFull.insert(*a & ~uint64_t(3));
      if (const auto& a = after.loaded.back()) c.unorderedLoad = *a & ~uint64_t(7);
    }
    for (const StepEffect& fx : after.effects) {
      const std::optional<uint64_t>& address = fx.address;
      auto target = address ? codeUnit(*address) : std::nullopt;
      switch (fx.ordering) {
        case Ordering::Full:
          ++c.fences;
          w.cache.release(cpu, c.fences);  // its cleans are ordered before its later stores
          break;
        case Ordering::Stores: ++c.fences; break;
        case Ordering::Completion: w.cache.barrier(cpu); break;
        case Ordering::ContextSync:
          // RISC-V fence.i: the CPU's own earlier stores before its later
          // fetches (Zifencei), so they reach memory first.
          if (!armCache() && !c.buffer.empty()) return false;
          context = true;
          break;
        case Ordering::CleanToUnification:
          if (target) w.cache.clean(cpu, *target, unsigned(w.code[*target]->size()) - 1);
          break;
        case Ordering::InvalidateInstruction:
          if (target) w.cache.invalidate(cpu, *target, unsigned(w.code[*target]->size()) - 1);
          break;
        case Ordering::ExceptionReturnAddress:
          if (fx.valueGiven) returnAddress = fx.value;
          break;
        default: break;
      }
      if (fx.ordering == Ordering::Full || fx.ordering == Ordering::Completion || fx.ordering == Ordering::Loads)
        c.unorderedLoad.reset();
      if (fx.ordering == Ordering::Full || fx.ordering == Ordering::Completion) c.loadsSinceFull.clear();
    }
    if (returnAddress) c.elr = *returnAddress;

    // An exception: to the thread's handler (P<N>.F), or back from it.
    for (const auto& [kind, detail] : after.faults) {
      if (kind == FaultKind::Eret && c.inHandler) {
        c.pc = c.elr;
        c.inHandler = false;
        if (armCache()) c.base = view(w);  // an Arm exception return synchronises context
        ++c.steps;
        c.done = c.pc == p_.threads[cpu].end;
        return true;
      }
      const ThreadCode& tc = p_.threads[cpu];
      if (!tc.hasHandler || c.inHandler) {
        refuse(at.at, tc.name + " faults at '" + at.text + "' (" + std::string(name(kind)) +
                          (detail.empty() ? "" : ": " + detail) + ") with no fault handler " + tc.name + ".F");
        return false;
      }
      c.elr = c.pc;
      c.pc = tc.handler;
      c.inHandler = true;
      if (armCache()) c.base = view(w);  // Arm: exception entry synchronises context (a RISC-V trap does not)
      ++c.steps;
      return true;
    }
    if (after.stop != "stepped") {
      refuse(at.at, "'" + at.text + "': " + after.stop);
      return false;
    }
    for (unsigned r = 0; r < regs_.size(); ++r) {
      if (regs_[r].zero) continue;
      const std::optional<uint64_t>& v = after.regs[r];
      if (!v) {
        refuse(at.at, "'" + at.text + "' leaves " + regs_[r].name + " undetermined");
        return false;
      }
      c.regs[r] = *v;
    }
    // Its stores join the buffer, as one store per instruction and address run.
    for (const StepStore& run : after.stores) {
      if (run.bytes > 8) {
        refuse(at.at, "'" + at.text + "' stores more than 8 bytes");
        return false;
      }
      unsigned version = 0;
      if (fetchesUnpropagated())
        for (uint64_t a = run.address & ~uint64_t(3); a < run.address + run.bytes; a += 4)
          if (auto word = codeUnit(a)) {
            if (run.address != a || run.bytes != 4) {
              refuse(p_.code[*word].at, "a store of " + std::to_string(run.bytes) + " bytes over part of an instruction");
              return false;
            }
            auto grown = std::make_shared<std::vector<Version>>(*w.code[*word]);
            grown->push_back({uint32_t(run.value), none_, 0, false});
            w.code[*word] = grown;
            version = unsigned(grown->size()) - 1;
          }
      c.buffer.push_back({run.address, run.bytes, run.value, c.fences, version});
    }
    c.pc = after.pc;
    if (context) c.base = view(w);
    ++c.steps;
    c.done = !c.inHandler && c.pc == p_.threads[cpu].end;
    return true;
  }

  // ---- the end of an execution
  void finish(const World& w) {
    for (const CpuState& c : w.cpus)
      if (!c.done || !c.buffer.empty()) return;  // stuck: no event, not an end (cannot happen)
    std::map<std::string, uint64_t> values;
    for (const std::string& v : observed()) values[v] = read(w, v);
    finals_.insert(values);
  }

  // "1:X9" or "x": what the condition and `locations` look at.
  std::vector<std::string> observed() const {
    std::set<std::string> out;
    std::function<void(const Prop&)> walk = [&](const Prop& q) {
      if (q.kind == Prop::Kind::Eq) out.insert(q.thread ? std::to_string(*q.thread) + ":" + q.name : q.name);
      for (const auto& a : q.args) walk(*a);
    };
    if (t_.condition && t_.condition->prop) walk(*t_.condition->prop);
    for (const std::string& l : t_.locations) out.insert(l);
    return {out.begin(), out.end()};
  }

  uint64_t read(const World& w, const std::string& v) const {
    auto colon = v.find(':');
    if (colon == std::string::npos) {
      uint64_t a = p_.locations.at(v), out = 0;
      for (unsigned k = 0; k < 8; ++k) out |= uint64_t(w.memory.at(a + k)) << (8 * k);
      return out;
    }
    unsigned thread = unsigned(std::stoul(v.substr(0, colon)));
    auto named = t_.dialect->registerNamed(v.substr(colon + 1));
    for (unsigned c = 0; c < p_.threads.size(); ++c)
      if (p_.threads[c].number == thread) {
        auto index = named ? isa_.parseRegister(named->model, p_.target) : std::nullopt;
        return index ? w.cpus[c].regs[*index] : 0;
      }
    return 0;
  }

  bool holds(const Prop& q, const std::map<std::string, uint64_t>& s) {
    switch (q.kind) {
      case Prop::Kind::True: return true;
      case Prop::Kind::False: return false;
      case Prop::Kind::Eq: {
        std::string key = q.thread ? std::to_string(*q.thread) + ":" + q.name : q.name;
        auto v = valueOf(q.value, p_);
        if (auto* d = std::get_if<Diagnostics>(&v)) {
          if (errors_.empty()) errors_ = *d;
          return false;
        }
        uint64_t want = std::get<uint64_t>(v), got = s.at(key);
        bool wName = !q.name.empty() && q.thread && (q.name[0] == 'W' || q.name[0] == 'w');
        return wName ? uint32_t(got) == uint32_t(want) : got == want;
      }
      case Prop::Kind::Fault:
        if (errors_.empty())
          errors_.push_back({{t_.file, q.at.line, q.at.column},
                             "fault(...) in the condition: outside what patchcheck's litmus runner models (docs/litmus.md)"});
        return false;
      case Prop::Kind::Not: return !holds(*q.args.at(0), s);
      case Prop::Kind::And:
        return std::all_of(q.args.begin(), q.args.end(), [&](const auto& a) { return holds(*a, s); });
      case Prop::Kind::Or:
        return std::any_of(q.args.begin(), q.args.end(), [&](const auto& a) { return holds(*a, s); });
      case Prop::Kind::Implies: {
        for (size_t k = 0; k + 1 < q.args.size(); ++k)
          if (!holds(*q.args[k], s)) return true;
        return holds(*q.args.back(), s);
      }
    }
    return false;
  }

  std::variant<LitmusResult, Diagnostics> result() {
    LitmusResult r;
    r.name = t_.name;
    r.cacheType = p_.fetch->takesCacheType() ? std::string(name(p_.cacheType)) : "";
    r.fetch = std::string(p_.fetch->name());
    r.explored = seen_.size();
    r.states.assign(finals_.begin(), finals_.end());
    const Condition& cond = *t_.condition;
    for (const auto& s : r.states) (holds(*cond.prop, s) ? r.positive : r.negative)++;
    if (!errors_.empty()) return errors_;
    r.quantifier = cond.quantifier == Condition::Quantifier::Exists      ? "exists"
                   : cond.quantifier == Condition::Quantifier::NotExists ? "~exists"
                                                                         : "forall";
    r.condition = r.quantifier + " " + str(*cond.prop);
    r.observation = r.positive == 0 ? "Never" : r.negative == 0 ? "Always" : "Sometimes";
    if (cond.quantifier == Condition::Quantifier::Forall) r.verdict = r.negative == 0 ? "Required" : "NotRequired";
    else r.verdict = r.positive > 0 ? "Allowed" : "Forbidden";
    return r;
  }
};

}  // namespace

std::string str(const Prop& q) {
  auto value = [](const InitValue& v) {
    switch (v.kind) {
      case InitValue::Kind::Number: return std::to_string(v.number);
      case InitValue::Kind::Instruction: return "instr:\"" + v.text + "\"";
      default: return v.text;
    }
  };
  auto join = [&](const char* op) {
    std::string out = "(";
    for (size_t k = 0; k < q.args.size(); ++k) out += (k ? op : "") + str(*q.args[k]);
    return out + ")";
  };
  switch (q.kind) {
    case Prop::Kind::True: return "true";
    case Prop::Kind::False: return "false";
    case Prop::Kind::Eq: return (q.thread ? std::to_string(*q.thread) + ":" : "") + q.name + "=" + value(q.value);
    case Prop::Kind::Fault: return "fault(" + (q.thread ? "P" + std::to_string(*q.thread) : "") + (q.name.empty() ? "" : ":" + q.name) + ")";
    case Prop::Kind::Not: return "~" + str(*q.args.at(0));
    case Prop::Kind::And: return join(" /\\ ");
    case Prop::Kind::Or: return join(" \\/ ");
    case Prop::Kind::Implies: return join(" => ");
  }
  return "";
}

StepSemantics& LitmusSession::semantics(const Target& t) {
  for (const auto& s : semantics_)
    if (s->target() == t) return *s;
  return *semantics_.emplace_back(std::make_unique<StepSemantics>(ctx_, t));
}

LitmusSession::~LitmusSession() = default;

std::variant<LitmusResult, Diagnostics> runLitmus(const Test& t, z3::context& c, const Limits& l,
                                                  const FetchRules* fetch) {
  LitmusSession session(c);
  return runLitmus(t, session, l, fetch);
}

std::variant<LitmusResult, Diagnostics> runLitmus(const Test& t, LitmusSession& session, const Limits& l,
                                                  const FetchRules* fetch) {
  if (!t.condition || !t.condition->prop)
    return Diagnostics{{{t.file, 1, 1}, "the test has no final condition (exists, ~exists or forall)"}};
  // A fault(...) atom anywhere in the condition is refused before running:
  // whether it would be evaluated depends on the other atoms' values.
  std::function<const Prop*(const Prop&)> faultAtom = [&](const Prop& q) -> const Prop* {
    if (q.kind == Prop::Kind::Fault) return &q;
    for (const auto& a : q.args)
      if (const Prop* f = faultAtom(*a)) return f;
    return nullptr;
  };
  if (const Prop* f = faultAtom(*t.condition->prop))
    return Diagnostics{{{t.file, f->at.line, f->at.column},
                        "fault(...) in the condition: outside what patchcheck's litmus runner models (docs/litmus.md)"}};
  auto laid = layOut(t, fetch);
  if (auto* d = std::get_if<Diagnostics>(&laid)) return *d;
  const Program& p = std::get<Program>(laid);
  return Runner(t, p, session.semantics(p.target), l).run();
}

}  // namespace patchcheck::litmus
