#include "checker/explore/PassExplorerImpl.h"

namespace patchcheck::passes {

std::optional<Instruction> Explorer::fetchMerged(Node& n, unsigned i, const std::vector<Group>& groups) {
  z3::expr choice = c_.bv_const(("fetch#" + std::to_string(choices_++)).c_str(), 16);
  size_t paths = n.path.size(), hazards = n.hazards.size(), fetchEvent = n.events.size();
  std::vector<Node> ran;
  std::vector<z3::expr> guards = {};
  for (size_t k = 0; k < groups.size() && !done(); ++k) {
    Node c = n;
    z3::expr guard = choice == c_.bv_val(unsigned(k), 16);
    c.path.push_back(guard);
    seen(c, i, groups[k].image, groups[k].observers, groups[k].names, groups[k].race);
    if (executor_.step(c, groups[k].image->fetched())) {
      ran.push_back(std::move(c));
      guards.push_back(guard);
    }
  }
  if (done()) return std::nullopt;
  std::vector<bool> taken(ran.size(), false);
  for (size_t a = 0; a < ran.size(); ++a) {
    if (taken[a]) continue;
    std::vector<size_t> same{a};
    for (size_t b = a + 1; b < ran.size(); ++b)
      if (!taken[b] && mergeable(ran[a], ran[b])) same.push_back(b), taken[b] = true;
    later(same.size() == 1 ? std::move(ran[a]) : merged(ran, guards, same, paths, hazards, fetchEvent));
  }
  return std::nullopt;
}

bool Explorer::sameTerms(const std::vector<z3::expr>& a, const std::vector<z3::expr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k)
    if (!z3::eq(a[k], b[k])) return false;
  return true;
}

bool Explorer::mergeable(const Node& a, const Node& b) {
  if (a.steps != b.steps || a.interrupts != b.interrupts || a.inBody != b.inBody || a.located || b.located ||
      a.called || b.called || a.emulate || b.emulate || a.emulateNext || b.emulateNext || a.resumeFromSlot ||
      b.resumeFromSlot || a.fetchedAt != b.fetchedAt ||
      a.events.size() != b.events.size() || !z3::eq(a.cpu.pc.simplify(), b.cpu.pc.simplify()))
    return false;
  if (a.cpu.slot.has_value() != b.cpu.slot.has_value()) return false;
  if (a.cpu.slot) {
    const Cpu::Slot &x = *a.cpu.slot, &y = *b.cpu.slot;
    if (!z3::eq(x.branchPc, y.branchPc) || x.control.kind != y.control.kind || x.control.likely != y.control.likely ||
        x.control.forbiddenSlot != y.control.forbiddenSlot || !z3::eq(x.control.taken, y.control.taken) ||
        !z3::eq(x.control.target, y.control.target))
      return false;
  }
  const MachineState &s = a.cpu.state, &t = b.cpu.state;
  if (s.freshCount != t.freshCount || s.havocCount != t.havocCount || s.effects.size() != t.effects.size() ||
      s.overlayReads.size() != t.overlayReads.size() || s.boundarySp.has_value() != t.boundarySp.has_value() ||
      !sameTerms(s.stored, t.stored) || !sameTerms(s.storedSinceBoundary, t.storedSinceBoundary) ||
      !sameTerms(s.loaded, t.loaded))
    return false;
  if (s.boundarySp && !z3::eq(*s.boundarySp, *t.boundarySp)) return false;
  for (size_t k = 0; k < s.effects.size(); ++k) {
    const SideEffect &x = s.effects[k], &y = t.effects[k];
    if (x.what != y.what || x.kind != y.kind || x.ordering != y.ordering || !z3::eq(x.address, y.address) ||
        x.value.has_value() != y.value.has_value() || (x.value && !z3::eq(*x.value, *y.value)))
      return false;
  }
  for (size_t k = 0; k < s.overlayReads.size(); ++k) {
    const OverlayRead &x = s.overlayReads[k], &y = t.overlayReads[k];
    if (x.unit != y.unit || !z3::eq(x.touched, y.touched) || !z3::eq(x.pick, y.pick) || !z3::eq(x.torn, y.torn))
      return false;
  }
  return true;
}

Node Explorer::merged(std::vector<Node>& ran, const std::vector<z3::expr>& guards, const std::vector<size_t>& which,
                      size_t paths, size_t hazards, size_t fetchEvent) {
  Node out = ran[which.front()];
  auto pick = [&](auto value) {
    z3::expr v = value(ran[which.front()]);
    for (size_t k = 1; k < which.size(); ++k) {
      z3::expr w = value(ran[which[k]]);
      if (!z3::eq(v, w)) v = z3::ite(guards[which[k]], w, v);
    }
    return v;
  };
  for (size_t r = 0; r < out.cpu.state.regs.size(); ++r)
    out.cpu.state.regs[r] = pick([r](const Node& x) { return x.cpu.state.regs[r]; });
  out.cpu.state.memory = pick([](const Node& x) { return x.cpu.state.memory; });
  z3::expr_vector ways(c_);
  for (size_t k : which) {
    z3::expr_vector since(c_);
    for (size_t p = paths; p < ran[k].path.size(); ++p) since.push_back(ran[k].path[p]);
    ways.push_back(z3::mk_and(since));
  }
  out.path.erase(out.path.begin() + long(paths), out.path.end());
  out.path.push_back(z3::mk_or(ways));
  for (size_t k = 1; k < which.size(); ++k)
    for (size_t h = hazards; h < ran[which[k]].hazards.size(); ++h) out.hazards.push_back(ran[which[k]].hazards[h]);
  // Event `fetchEvent` of each run is the fetch of its image (seen()).
  event::Fetch fetch = std::get<event::Fetch>(out.events[fetchEvent]);
  fetch.alternatives.clear();
  fetch.guards.clear();
  for (size_t k : which) {
    fetch.alternatives.push_back(std::get<event::Fetch>(ran[k].events[fetchEvent]));
    fetch.guards.push_back(guards[k]);
  }
  out.events[fetchEvent] = std::move(fetch);
  Observer least = out.observers.front();
  for (size_t k : which)
    for (const Observer& o : ran[k].observers) least = s_.fetch->meet(least, o);
  out.observers = {least};
  out.cpu.state.overlay = dataOverlay(out.observers);
  return out;
}

Node Explorer::resolved(const Node& n, const z3::model& m) const {
  Node r = n;
  for (Event& e : r.events) {
    auto* f = std::get_if<event::Fetch>(&e);
    if (!f || f->alternatives.empty()) continue;
    size_t k = 0;
    while (k + 1 < f->guards.size() && !m.eval(f->guards[k], true).is_true()) ++k;
    event::Fetch chosen = f->alternatives[k];
    e = std::move(chosen);
  }
  return r;
}

}  // namespace patchcheck::passes
