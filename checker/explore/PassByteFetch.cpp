#include "checker/explore/PassExplorerImpl.h"

#include <algorithm>
#include <array>
#include <span>

namespace patchcheck::passes {

std::optional<Instruction> Explorer::fetchBytes(Node& n, unsigned first) {
  if (!s_.instructionStarts.empty() && !s_.instructionStarts.count(first) && !s_.witnessOnly) {
    std::string unit = s_.site->spec().unitName(first);
    addHazard(n, c_.bool_val(true), Hazard::Kind::Elsewhere, [unit](const z3::model&) {
      return "the pass decodes from " + unit + ", where no state it may see starts an instruction: it runs "
             "bytes nobody wrote as code there (the tail of a torn instruction, or the middle of a new one)";
    });
    finish(n);
    return std::nullopt;
  }
  struct Partial {
    Node node;
    std::vector<const UnitImage*> bytes;
    std::vector<std::string> names;
    std::vector<unsigned> version;  // per byte: the version it is
    bool decoded = false;          // the ISA said these bytes need more
    // What the node was after each byte (index k: after byte k - 1), to
    // go back to when a byte is read anew.
    std::vector<Snapshot> after;
  };
  std::vector<Partial> work;
  work.push_back(Partial{n, {}, {}, {}, true, {snapshot(n)}});
  std::optional<std::pair<Node, Instruction>> goesOn;  // the first decoding: this execution goes on with it
  while (!work.empty()) {
    // One fetch may fork hundreds of ways: the time budget holds inside it too.
    if (timeUp()) return std::nullopt;
    Partial p = std::move(work.back());
    work.pop_back();
    if (p.decoded) {
      extend(std::move(p), first, work);
      continue;
    }
    std::array<uint8_t, 16> raw{};
    std::array<bool, 16> symbolic{};
    size_t count = std::min<size_t>(p.bytes.size(), raw.size());
    for (size_t k = 0; k < count; ++k) {
      raw[k] = uint8_t(p.bytes[k]->symbolic.knownBits);
      symbolic[k] = p.bytes[k]->symbolic.knownMask != 0xff;
    }
    IsaPlugin::Length len = t_.isa->instructionLength(std::span<const uint8_t>(raw.data(), count),
                                                      std::span<const bool>(symbolic.data(), count), t_);
    if (len.kind == IsaPlugin::Length::NeedMore) {
      p.decoded = true;
      work.push_back(std::move(p));
      continue;
    }
    if (len.kind == IsaPlugin::Length::PlacementDependent) {
      // A torn fetch put an address byte where the opcode is read: one
      // execution per value the placement lets that byte have.
      // The bytes after it were read for the other meaning: they are
      // read again, from the node as it was after this one.
      size_t k = size_t(std::find(symbolic.begin(), symbolic.begin() + count, true) - symbolic.begin());
      for (auto& [value, when] : byteValues(p.node, p.bytes[k]->symbolic.term, first + unsigned(k))) {
        Partial r = p;
        restore(r.node, r.after[k + 1]);
        r.bytes.resize(k + 1), r.names.resize(k + 1), r.version.resize(k + 1), r.after.resize(k + 2);
        r.node.assume(when);
        r.bytes[k] = value;
        r.after[k + 1] = snapshot(r.node);
        work.push_back(std::move(r));
      }
      continue;
    }
    // Known, or Invalid: the model decodes the bytes and raises #UD.
    Instruction insn = compose(p.bytes);
    std::string versions;
    bool same = std::all_of(p.names.begin(), p.names.end(), [&](const std::string& x) { return x == p.names[0]; });
    for (const std::string& x : p.names) versions += (versions.empty() ? "" : " ") + x;
    std::string label = p.bytes.size() == 1 ? p.names[0] : same ? "all " + p.names[0] : versions;
    unsigned landed = ~0u;
    for (const auto& o : p.node.observers) landed = std::min(landed, s_.fetch->landed(o));
    p.node.events.push_back(event::Fetch{.unit = first,
                                         .versions = label,
                                         .pc = p.node.cpu.pc,
                                         .term = insn.term,
                                         .landed = landed,
                                         .overlay = p.node.cpu.state.overlay,
                                         .length = insn.bytes});
    p.node.fetchedAt = first;
    if (!goesOn) {
      goesOn.emplace(std::move(p.node), insn);
      continue;
    }
    // Every other decoding runs its instruction now, before the rest
    // are decoded: a torn one that faults (#UD) ends its pass at once,
    // and a counterexample then ends the fetch, where decoding every
    // mix first cost seconds and, for a 10-byte instruction with an
    // address in it, gigabytes. Only the order changes: each decoding
    // still runs, or waits in the queue.
    if (executor_.step(p.node, insn)) later(std::move(p.node));
    if (done()) return std::nullopt;  // that step refuted the transition
  }
  if (!goesOn) return std::nullopt;
  n = std::move(goesOn->first);
  return goesOn->second;
}

Explorer::Snapshot Explorer::snapshot(const Node& n) {
  return {n.observers, n.cpu.state.overlay, n.events.size(), n.hazards.size(), n.path.size()};
}

void Explorer::restore(Node& n, const Snapshot& s) {
  n.observers = s.observers;
  n.cpu.state.overlay = s.overlay;
  n.events.erase(n.events.begin() + long(s.events), n.events.end());
  n.hazards.erase(n.hazards.begin() + long(s.hazards), n.hazards.end());
  n.path.erase(n.path.begin() + long(s.path), n.path.end());
}

template <class Partial>
void Explorer::extend(Partial&& p, unsigned first, std::vector<Partial>& work) {
  unsigned u = first + unsigned(p.bytes.size());
  if (u >= s_.site->regionUnits()) {
    unknown_ = true;  // what lies past the declared bytes is not known
    out_.unknownReason = "a pass decodes an instruction at " + s_.site->spec().unitName(first) +
                         " whose bytes run past the site's declared bytes";
    return;
  }
  std::vector<Group> groups = groupsOf(p.node.observers, u, false);
  // One fetch of an aligned chunk (RISC-V Ziccif): this byte is the same
  // store's as the byte before it.
  if (!p.version.empty() && u < s_.fetchedWithPrevious.size() && s_.fetchedWithPrevious[u])
    std::erase_if(groups, [&](const Group& g) { return g.versions.front() != p.version.back(); });
  for (size_t way = 0; way < groups.size(); ++way) {
    Group& g = groups[way];
    // The last way takes the partial itself: a copy costs the pass's
    // events so far, once per byte, quadratic in a long pass.
    Partial q = way + 1 == groups.size() ? std::move(p) : p;
    seen(q.node, u, g.image, g.observers, g.names, g.race, true);
    q.bytes.push_back(g.image);
    q.names.push_back(g.names);
    q.version.push_back(g.versions.front());  // unmerged: one version a group
    q.decoded = false;
    q.after.push_back(snapshot(q.node));
    // The whole instruction is fetched between two serialisations of its
    // CPU: keep the observers none of whose bytes a later sync_core rules
    // out (time only moves on, so pruning now loses nothing).
    std::vector<Observer> whole;
    for (const Observer& o : q.node.observers) {
      bool ok = true;
      for (size_t k = 0; k < q.bytes.size() && ok; ++k) ok = s_.fetch->stillFetchable(o, first + unsigned(k), q.version[k]);
      if (ok) whole.push_back(o);
    }
    if (whole.empty()) continue;
    q.node.observers = std::move(whole);
    q.after.back().observers = q.node.observers;
    work.push_back(std::move(q));
  }
}

std::vector<std::pair<const UnitImage*, z3::expr>> Explorer::byteValues(const Node& n, const z3::expr& byte, unsigned unit) {
  std::vector<std::pair<const UnitImage*, z3::expr>> out;
  z3::expr others = c_.bool_val(true);
  for (unsigned tries = 0;; ++tries) {
    Answer a = prover_.check(pathOf(n) && others);
    if (a == Answer::Unknown) {
      unknown_ = true;
      out_.unknownReason = prover_.lastUnknownReason();
    }
    if (a != Answer::Sat) break;
    if (tries == kMaxByteValues) {
      unknown_ = true;
      out_.unknownReason = "a torn fetch reads an address byte at " + s_.site->spec().unitName(unit) +
                           " as an opcode byte, and it may take more than " + std::to_string(kMaxByteValues) +
                           " values where the symbols may lie: those decodings are not explored";
      break;
    }
    uint64_t v = u64(prover_.model().eval(byte, true));
    z3::expr is = byte == c_.bv_val(v, 8);
    others = others && !is;
    UnitImage img = s_.versions[unit][0];
    img.symbolic = SymbolicUnit{c_.bv_val(v, 8), {}, {}, v, 0xff};
    img.assembled.bits = v, img.assembled.symbolicMask = 0;
    concreteBytes_.push_back(std::move(img));
    out.push_back({&concreteBytes_.back(), is});
  }
  return out;
}

Instruction Explorer::compose(const std::vector<const UnitImage*>& bytes) const {
  bool big = t_.isa->instructionByteOrder(t_) == Endian::Big;
  z3::expr term = bytes[0]->symbolic.term;
  uint64_t known = 0;
  for (size_t k = 0; k < bytes.size(); ++k) {
    const z3::expr& b = bytes[k]->symbolic.term;
    if (k) term = big ? z3::concat(term, b) : z3::concat(b, term);
    size_t significance = big ? bytes.size() - 1 - k : k;
    if (significance < 8) known |= (bytes[k]->symbolic.knownBits & 0xff) << (8 * significance);
  }
  return Instruction{term.simplify(), known, unsigned(bytes.size())};
}

bool Explorer::breakpointHandled(Node& c, const Fault& f) {
  if (s_.breakpointHandler == ModelSpec::Breakpoint::None || !f.when.simplify().is_true()) return false;
  const event::Fetch* last = c.events.empty() ? nullptr : as<event::Fetch>(c.events.back());
  if (!last || last->image) return false;
  auto it = s_.breakpoints.find(c.fetchedAt);
  if (it == s_.breakpoints.end()) return false;
  // text_poke_bp drops its vector after its last sync_core: a breakpoint
  // a CPU may still fetch after the steps finds no handler.
  const event::Byte* byte = nullptr;
  for (auto e = c.events.rbegin(); e != c.events.rend() && !byte; ++e)
    if (const auto* b = as<event::Byte>(*e); b && b->unit == c.fetchedAt) byte = b;
  const auto& vers = s_.versions[c.fetchedAt];
  for (unsigned v = 0; byte && !s_.vectorOutlivesSteps && v < vers.size(); ++v)
    if (vers[v].sameAs(*byte->image) && s_.fetch->fetchableAfterSteps(c.fetchedAt, v)) {
      std::string unit = s_.site->spec().unitName(c.fetchedAt);
      addHazard(c, c_.bool_val(true), Hazard::Kind::Fault, [unit](const z3::model&) {
        return "Break: the breakpoint at " + unit + " may still be fetched after the last step, when the int3 "
               "handler no longer has the address in its vector (no sync_core after the final write)";
      });
      c.hazards.back().fault = FaultKind::Break;
      return false;
    }
  z3::expr at = s_.site->unitAddress(it->first);
  Instruction emulated = it->second->fetched();
  if (s_.breakpointHandler == ModelSpec::Breakpoint::Emulate) {
    c.emulate.emplace(at, emulated);
  } else {
    c.cpu.pc = at + c_.bv_val(uint64_t(emulated.bytes), 64);
    c.events.push_back(event::Handler{.pc = c.cpu.pc});  // skipped: no instruction
  }
  return true;
}

}  // namespace patchcheck::passes
