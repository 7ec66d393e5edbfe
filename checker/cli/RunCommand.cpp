// `patchcheck run`: runs a snippet symbolically from a fully symbolic entry
// state and prints, for every path, how it ends, every register and memory
// location whose value changed (as an expression over the entry values
// in.a0, in.sp, ..., in.mem), the side effects, and every fault it can reach
// with the condition under which it happens.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>

#include "checker/cli/Commands.h"
#include "checker/cli/TargetOptions.h"
#include "checker/cli/Input.h"
#include "encoder/Hex.h"
#include "encoder/Isa.h"
#include "checker/explore/Prover.h"
#include "model/Cpu.h"
#include "model/Executor.h"
#include "model/IsaModel.h"
#include "model/TermPrinter.h"

namespace patchcheck {
namespace {

struct RunArgs {
  TargetOptions target;
  std::string base;
  std::vector<std::string> syms;
  std::vector<std::string> symbolic;
  unsigned maxSteps = kDefaultMaxSteps;
  unsigned timeoutMs = 20000;
  bool assumeAbi = false;
  std::string file;
};

// The snippet as the CPU fetches it: its units at their byte offsets from
// the base (MIPS and arm64: 4-byte words; x86: instructions of 1..15 bytes).
struct Snippet {
  uint64_t base = 0;
  std::vector<Instruction> words;
  std::vector<uint64_t> offset;    // of each unit from base
  uint64_t bytes = 0;              // the whole snippet
  std::vector<std::string> text;   // source statement per word
  std::vector<z3::expr> validity;  // encodings of symbolic immediates must be valid

  std::optional<size_t> unitAt(uint64_t at) const {
    if (at < base || at - base >= bytes) return std::nullopt;
    auto it = std::lower_bound(offset.begin(), offset.end(), at - base);
    if (it == offset.end() || *it != at - base) return std::nullopt;
    return size_t(it - offset.begin());
  }
};

// One path through the snippet, and how it ended.
struct Path : Execution {
  using Execution::Execution;
  std::vector<std::string> faults;
  std::string how;
  std::optional<z3::expr> target;  // where it jumps, when that is not a number
};

// The snippet as the executor's client: its words, and where paths end.
class Explorer final : public Executor<Path>::Client {
 public:
  Explorer(z3::context& c, const Snippet& s, unsigned maxSteps, unsigned timeoutMs)
      : c_(c), snippet_(s), prover_(c, timeoutMs),
        executor_(*this, [this](const std::vector<z3::expr>& path, const z3::expr& cond) { return ask(path, cond); },
                  Executor<Path>::Options{maxSteps, false, nullptr, nullptr}) {}

  std::vector<Path> run(const MachineState& entry) {
    Path start{Cpu(entry, c_.bv_val(snippet_.base, 64))};
    for (const z3::expr& v : snippet_.validity) start.assume(v);
    executor_.later(std::move(start));
    executor_.run();
    return std::move(done_);
  }

  // Can `cond` hold on the path? A question the solver leaves open within
  // --timeout counts as possible: `run` shows what may happen.
  bool possible(const Path& p, const z3::expr& cond) { return executor_.decide(p, cond) != Answer::Unsat; }
  bool undecided() const { return executor_.undecided(); }

  std::optional<Instruction> fetch(Path& p) override {
    uint64_t end = snippet_.base + snippet_.bytes;
    z3::expr pc = p.cpu.pc.simplify();
    uint64_t at = 0;
    bool known = pc.is_numeral() && pc.is_numeral_u64(at);
    std::optional<size_t> unit = known ? snippet_.unitAt(at) : std::nullopt;
    if (unit) {
      index_ = *unit;
      return snippet_.words[index_];
    }
    bool inside = known && at >= snippet_.base && at < end;
    p.how = !known     ? "jumps to"
            : at == end ? "falls through to the end (" + hex(at) + ")"
            : inside    ? "jumps to " + hex(at) + ", where no unit of the snippet starts"
                        : "jumps to " + hex(at);
    if (p.cpu.slot) p.how += " with its delay slot outside the snippet";
    if (!known) p.target = pc;
    done_.push_back(std::move(p));
    return std::nullopt;
  }

  bool stepped(Path& p, const std::vector<Fault>& faults, size_t) override {
    for (const Fault& f : faults) {
      if (!possible(p, f.when)) continue;
      std::string line = std::string(name(f.kind)) + ": " + f.detail + "  [" + snippet_.text[index_] + "]";
      z3::expr own = f.when.simplify();
      if (!own.is_true()) line += "\n      when " + printTerm(own);
      p.faults.push_back(line);
      if (!possible(p, !f.when)) {  // the fault always happens here
        p.how = "faults (" + std::string(name(f.kind)) + ")";
        done_.push_back(std::move(p));
        return false;
      }
      p.assume(!f.when);
    }
    return true;
  }

  void runaway(Path& p) override {
    p.how = "stops after " + std::to_string(executor_.maxSteps()) + " steps (a loop?)";
    done_.push_back(std::move(p));
  }

 private:
  z3::context& c_;
  const Snippet& snippet_;
  Prover prover_;
  Executor<Path> executor_;
  std::vector<Path> done_;
  size_t index_ = 0;  // the word the current step runs

  Answer ask(const std::vector<z3::expr>& path, const z3::expr& cond) {
    z3::expr_vector v(c_);
    for (const z3::expr& e : path) v.push_back(e);
    v.push_back(cond);
    return prover_.check(z3::mk_and(v));
  }
};

// Stores on top of the entry memory, newest first, grouped into runs of
// consecutive bytes written together.
struct MemoryWrite {
  z3::expr address;
  z3::expr value;
  unsigned bytes;
};

std::vector<MemoryWrite> memoryWrites(const MachineState& final, const z3::expr& entryMemory) {
  std::vector<std::pair<z3::expr, z3::expr>> stores;  // newest first
  z3::expr m = final.memory;
  while (m.is_app() && m.decl().decl_kind() == Z3_OP_STORE && !z3::eq(m, entryMemory)) {
    stores.emplace_back(m.arg(1), m.arg(2));
    m = m.arg(0);
  }
  std::vector<MemoryWrite> out;
  // Oldest first, so consecutive bytes of one store instruction are adjacent.
  for (size_t i = stores.size(); i-- > 0;) {
    const auto& [addr, byte] = stores[i];
    if (!out.empty()) {
      MemoryWrite& last = out.back();
      z3::expr next = (last.address + final.ctx.bv_val(uint64_t(last.bytes), 64)).simplify();
      if (last.bytes < 8 && z3::eq(next, addr.simplify())) {
        last.value = final.target.endian == Endian::Big ? z3::concat(last.value, byte)
                                                         : z3::concat(byte, last.value);
        ++last.bytes;
        continue;
      }
    }
    out.push_back(MemoryWrite{addr.simplify(), byte, 1});
  }
  std::reverse(out.begin(), out.end());  // newest first
  std::vector<MemoryWrite> unique;
  for (MemoryWrite& w : out) {
    bool shadowed = false;
    for (const MemoryWrite& u : unique) shadowed = shadowed || (z3::eq(u.address, w.address) && u.bytes >= w.bytes);
    if (!shadowed) unique.push_back(MemoryWrite{w.address, w.value.simplify(), w.bytes});
  }
  return unique;
}

int runSnippet(const RunArgs& a) {
  AssemblyOptions opt;
  auto target = commandTarget(a.target);
  if (!target) return 2;
  const Target& t = *target;
  opt.target = t;
  uint64_t base = t.wide() ? 0xffffffff80100000ull : 0x80100000ull;
  if (!a.base.empty()) {
    auto b = parseAddress(a.base);
    if (!b) {
      std::cerr << "<command line>: error: --base '" << a.base << "' is not an address\n";
      return 2;
    }
    base = *b;
  }
  opt.base = Value::constant(int64_t(base));
  if (!addSymbols(a.syms, opt.symbols)) return 2;
  for (const std::string& s : a.symbolic) opt.symbolic.insert(s);

  auto source = readSource(a.file);
  if (!source) return 2;
  auto assembled = t.isa->assemble(source->text, source->name, opt);
  if (auto* errs = std::get_if<Diagnostics>(&assembled)) {
    for (const auto& d : *errs) std::cerr << d.str() << "\n";
    return 2;
  }
  const Program& assembly = std::get<Program>(assembled);
  if (assembly.units.empty()) {
    std::cerr << source->name << ": error: no instructions to run\n";
    return 2;
  }

  z3::context c;
  // 32-bit ISAs form sign-extended 32-bit addresses: a symbol is a 32-bit
  // unknown there, so the snippet's base is too.
  bool wide = t.wide();
  SymbolTerm symbol = [&c, wide](const std::string& n) {
    z3::expr s = c.bv_const(("sym." + n).c_str(), wide ? 64 : 32);
    return wide ? s : z3::sext(s, 32);
  };
  uint64_t start = wide ? base : uint64_t(int64_t(int32_t(uint32_t(base))));
  Snippet snippet;
  snippet.base = start;
  for (const Unit& w : assembly.units) {
    uint64_t at = uint64_t(w.address.addend) - base;
    if (!snippet.offset.empty() && at < snippet.offset.back() + snippet.words.back().bytes) {
      std::cerr << Diagnostic{w.where, "the snippet must lie in address order without overlaps"}.str() << "\n";
      return 2;
    }
    snippet.offset.push_back(at);
    snippet.bytes = at + w.bytes;
    if (w.isConcrete() && w.bytes <= 8) {
      snippet.words.push_back(Instruction{c.bv_val(w.bits, 8 * w.bytes), w.bits, w.bytes});
    } else {  // symbolic, or longer than `bits` holds (x86): the plug-in's term
      SymbolicUnit sw = t.isa->symbolic(w, t, c, symbol);
      snippet.words.push_back(Instruction{sw.term, sw.knownBits, w.bytes});
      snippet.validity.insert(snippet.validity.end(), sw.conditions.begin(), sw.conditions.end());
    }
    snippet.text.push_back(w.where.file + ":" + std::to_string(w.where.line) + ": " + w.source);
  }

  MachineState entry = MachineState::symbolic(c, t, "in.");
  const IsaModel& isa = modelOf(t);
  if (a.assumeAbi) snippet.validity.push_back(isa.entryAssumptions(entry));
  Explorer explorer(c, snippet, a.maxSteps, a.timeoutMs);
  auto paths = explorer.run(entry);

  bool stream = t.isa->patchUnitBytes(t) == 1;  // x86: instructions, not words
  std::cout << "target " << opt.target.str() << ", " << snippet.words.size()
            << (stream ? " instructions (" + std::to_string(snippet.bytes) + " bytes)" : " words") << " at "
            << hex(start) << ", entry state in.* (every register and memory symbolic)\n";
  const auto& file = isa.registers(t);
  unsigned n = 0;
  for (const Path& path : paths) {
    const MachineState& s = path.cpu.state;
    // A value the simplifier leaves long (lui %hi + addiu %lo) may still be
    // provably an entry register or a symbol: say so.
    std::vector<z3::expr> names;
    for (unsigned r = 0; r < file.size(); ++r)
      if (file[r].general && !file[r].zero && file[r].bits > 0) names.push_back(entry.reg(r));
    for (unsigned r = 0; r < file.size() && !wide; ++r)
      if (file[r].general && !file[r].zero && file[r].bits > 0) names.push_back(entry.address(entry.reg(r)));
    for (const std::string& sym : a.symbolic) {
      z3::expr t = symbol(sym);
      names.push_back(t);
      if (!wide) names.push_back(t.extract(31, 0).simplify());
    }
    auto readable = [&](const z3::expr& v) {
      for (const z3::expr& name : names)
        if (name.get_sort().bv_size() == v.get_sort().bv_size() && !explorer.possible(path, v != name)) return name;
      return v;
    };
    std::cout << "\npath " << ++n << ": " << path.how;
    if (path.target) std::cout << " " << printTerm(readable(*path.target));
    std::cout << "\n";
    z3::expr cond = path.condition().simplify();
    if (!cond.is_true()) std::cout << "  when " << printTerm(cond) << "\n";
    for (unsigned r = 0; r < file.size(); ++r) {
      if (file[r].zero || !file[r].unknownAtEntry) continue;
      z3::expr v = s.reg(r).simplify();
      if (z3::eq(v, entry.reg(r))) continue;
      if (file[r].general) {
        if (!explorer.possible(path, v != entry.reg(r))) continue;
        std::cout << "  " << file[r].name << " = " << printTerm(readable(v)) << "\n";
      } else if (file[r].bits != 0) {
        std::cout << "  " << file[r].name << " = " << printTerm(v) << "\n";
      }
    }
    for (const MemoryWrite& w : memoryWrites(s, entry.memory))
      std::cout << "  mem" << 8 * w.bytes << "[" << printTerm(w.address) << "] = " << printTerm(w.value) << "\n";
    for (const SideEffect& e : s.effects)
      std::cout << "  effect: " << e.what << " at " << printTerm(e.address) << "\n";
    for (const std::string& f : path.faults) std::cout << "  fault " << f << "\n";
  }
  if (explorer.undecided())
    std::cout << "\nnote: the solver left some questions open within --timeout; their ways are shown as possible\n";
  return 0;
}

}  // namespace

void addRunCommand(CLI::App& app, int& exitCode) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand(
      "run", "Run a snippet symbolically: final values as expressions over the entry state, and reachable faults");
  args->target.addTo(*cmd);
  cmd->add_option("--base", args->base,
                  "address of the first word (default 0x80100000, or 0xffffffff80100000 on 64-bit ISAs)");
  cmd->add_option("--sym", args->syms, "NAME=ADDRESS, a symbol's concrete address");
  cmd->add_option("--symbolic", args->symbolic, "NAME, a symbol whose address stays symbolic (sym.NAME)");
  cmd->add_flag("--assume-abi", args->assumeAbi,
                "assume an ABI-conformant entry (sp aligned; n32: sp, ra, gp sign-extended)");
  cmd->add_option("--max-steps", args->maxSteps, "instructions one path runs before it counts as a loop (at least twice the site region's units)")
      ->capture_default_str();
  cmd->add_option("--timeout", args->timeoutMs, "solver timeout per query in ms (past it, a way counts as possible)")
      ->capture_default_str();
  cmd->add_option("file", args->file, "assembly file, or - for stdin")->required();
  cmd->callback([args, &exitCode] { exitCode = runSnippet(*args); });
}

}  // namespace patchcheck
