#include "checker/explore/PassExplorerImpl.h"

#include <algorithm>

namespace patchcheck::passes {

std::vector<Explorer::Group> Explorer::groupsOf(const std::vector<Observer>& observers, unsigned i, bool merge) {
  const auto& vers = s_.versions[i];
  std::vector<Group> groups;
  for (unsigned v = 0; v < vers.size(); ++v) {
    std::vector<Observer> next;
    for (const Observer& o : observers)
      if (auto r = s_.fetch->observe(o, i, v))
        if (std::find(next.begin(), next.end(), *r) == next.end()) next.push_back(*r);
    if (next.empty()) continue;
    ++out_.counts.executions;
    std::optional<std::string> race = cmodxRace(next, i, v);
    auto g = std::find_if(groups.begin(), groups.end(),
                          [&](const Group& x) { return merge && x.image->sameAs(vers[v]); });
    const std::string& nm = s_.versionNames[i][v];
    if (g == groups.end()) {
      groups.push_back(Group{&vers[v], next, nm, race, {v}});
    } else {
      g->versions.push_back(v);
      for (const auto& o : next)
        if (std::find(g->observers.begin(), g->observers.end(), o) == g->observers.end()) g->observers.push_back(o);
      g->names += "/" + nm;
      if (!g->race) g->race = race;
    }
    for (const UnitImage* mix : mixesOf(next, i, v)) {
      ++out_.counts.executions;
      groups.push_back(Group{mix, next, mix->source, race, {v}});
    }
  }
  return groups;
}

std::vector<const UnitImage*> Explorer::mixesOf(const std::vector<Observer>& obs, unsigned i, unsigned v) {
  const auto& vers = s_.versions[i];
  std::vector<const UnitImage*> out;
  if (!t_.isa->patching().mixesUnderModification(vers[v].assembled)) return out;
  std::vector<unsigned> racing;
  for (const Observer& o : obs)
    for (unsigned j : s_.fetch->racingVersions(o, i, v))
      if (std::find(racing.begin(), racing.end(), j) == racing.end()) racing.push_back(j);
  for (unsigned j : racing) {
    if (!t_.isa->patching().mixesUnderModification(vers[j].assembled) || vers[j].sameAs(vers[v])) continue;
    std::optional<uint64_t> field = t_.isa->patching().mixableTargetField(vers[v].assembled, vers[j].assembled);
    if (!field) {
      // Two kinds of conditional branch: their fields do not line up, and
      // this model does not build the crossed instruction.
      unknown_ = true;
      out_.unknownReason = s_.site->spec().unitName(i) + " changes from '" + vers[v].source + "' to '" +
                           vers[j].source + "' while this pass may fetch it: the Arm ARM lets the fetch take the "
                           "condition of one and the target of the other, and for two kinds of conditional branch "
                           "the model does not build that instruction";
      continue;
    }
    for (bool condOld : {true, false}) {
      auto key = std::make_tuple(i, v, j, condOld);
      auto it = mixes_.find(key);
      if (it == mixes_.end()) {
        const UnitImage& cond = condOld ? vers[v] : vers[j];
        const UnitImage& target = condOld ? vers[j] : vers[v];
        it = mixes_.emplace(key, crossed(cond, target, *field)).first;
      }
      if (it->second.sameAs(vers[v]) || it->second.sameAs(vers[j])) continue;
      out.push_back(&it->second);
    }
  }
  return out;
}

bool Explorer::mixOf(const UnitImage* img, unsigned i, unsigned v) const {
  for (const auto& [key, w] : mixes_)
    if (&w == img) return std::get<0>(key) == i && std::get<1>(key) == v;
  return false;
}

UnitImage Explorer::crossed(const UnitImage& cond, const UnitImage& target, uint64_t field) const {
  UnitImage w = cond;
  unsigned bits = w.symbolic.term.get_sort().bv_size();
  z3::expr m = c_.bv_val(field, bits);
  w.symbolic.term = ((cond.symbolic.term & ~m) | (target.symbolic.term & m)).simplify();
  w.symbolic.knownMask = (cond.symbolic.knownMask & ~field) | (target.symbolic.knownMask & field);
  w.symbolic.knownBits = ((cond.symbolic.knownBits & ~field) | (target.symbolic.knownBits & field)) &
                         w.symbolic.knownMask;
  w.symbolic.conditions = cond.symbolic.conditions;
  w.symbolic.reasons = cond.symbolic.reasons;
  w.symbolic.conditions.insert(w.symbolic.conditions.end(), target.symbolic.conditions.begin(),
                               target.symbolic.conditions.end());
  w.symbolic.reasons.insert(w.symbolic.reasons.end(), target.symbolic.reasons.begin(), target.symbolic.reasons.end());
  w.assembled.bits = (cond.assembled.bits & ~field) | (target.assembled.bits & field);
  w.assembled.symbolicMask = (cond.assembled.symbolicMask & ~field) | (target.assembled.symbolicMask & field);
  w.source = "the condition of '" + cond.source + "' with the target of '" + target.source + "'";
  return w;
}

std::optional<Instruction> Explorer::fetchVersions(Node& n, unsigned i) {
  std::vector<Group> groups = groupsOf(n.observers, i);
  if (groups.empty()) return std::nullopt;
  if (merging_ && groups.size() > 1) return fetchMerged(n, i, groups);
  for (size_t k = groups.size(); k-- > 1;) {
    Node c = n;
    seen(c, i, groups[k].image, groups[k].observers, groups[k].names, groups[k].race);
    if (executor_.step(c, groups[k].image->fetched())) later(std::move(c));
  }
  seen(n, i, groups[0].image, groups[0].observers, groups[0].names, groups[0].race);
  return groups[0].image->fetched();
}

std::optional<std::string> Explorer::cmodxRace(const std::vector<Observer>& obs, unsigned i, unsigned v) const {
  const auto& vers = s_.versions[i];
  auto listed = [&](unsigned k) { return t_.isa->patching().concurrentlyModifiable(vers[k].assembled); };
  for (const Observer& o : obs)
    for (unsigned j : s_.fetch->racingVersions(o, i, v)) {
      // A write of the bits the unit already holds modifies nothing.
      if (vers[j].sameAs(vers[v]) || (listed(v) && listed(j))) continue;
      return s_.site->spec().unitName(i) + " changes from '" + vers[v].source + "' to '" + vers[j].source +
             "' while this pass may fetch it: concurrent modification and execution of instructions is "
             "CONSTRAINED UNPREDICTABLE unless both are on the Arm ARM's CMODX list (" +
             t_.isa->patching().concurrentModificationList() + ")";
    }
  return std::nullopt;
}

void Explorer::seen(Node& c, unsigned i, const UnitImage* img, const std::vector<Observer>& obs, const std::string& names,
                    const std::optional<std::string>& race, bool byte) {
  c.observers = obs;
  unsigned landed = ~0u;
  for (const auto& o : obs) landed = std::min(landed, s_.fetch->landed(o));
  c.cpu.state.overlay = dataOverlay(obs);
  if (byte)
    c.events.push_back(event::Byte{.unit = i, .version = names, .image = img, .landed = landed});
  else
    c.events.push_back(event::Fetch{.unit = i,
                                    .versions = names,
                                    .pc = c.cpu.pc,
                                    .term = img->symbolic.term,
                                    .image = img,
                                    .landed = landed,
                                    .overlay = c.cpu.state.overlay});
  if (race) addHazard(c, c_.bool_val(true), Hazard::Kind::Cmodx, [why = *race](const z3::model&) { return why; });
  if (c.inBody && i >= siteUnits() && !img->sameAs(s_.versions[i][0])) {
    std::string orig = s_.versions[i][0].source, now = img->source;
    unsigned bodyIndex = i - siteUnits();
    addHazard(c, c_.bool_val(true), Hazard::Kind::Overwritten, [orig, now, bodyIndex](const z3::model&) {
      return "F's body word " + std::to_string(bodyIndex) + " ('" + orig +
             "') runs after the transition overwrote it with '" + now + "'";
    });
  }
}

std::shared_ptr<const MemoryOverlay> Explorer::dataOverlay(const std::vector<Observer>& obs) {
  const Spec& spec = s_.site->spec();
  if (spec.before.empty()) return nullptr;
  std::vector<unsigned> oldest;
  for (unsigned u = 0; u < spec.entryUnit(); ++u) {
    unsigned least = unsigned(s_.versions[u].size()) - 1;
    for (const Observer& o : obs) least = std::min(least, s_.fetch->oldestLoad(o, u));
    oldest.push_back(least);
  }
  auto& cached = overlays_[oldest];
  if (cached) return cached;
  auto overlay = std::make_shared<MemoryOverlay>();
  for (unsigned u = 0; u < spec.entryUnit(); ++u) {
    OverlayUnit unit{s_.site->unitAddress(u), spec.unitName(u), {}, {}};
    for (unsigned v = oldest[u]; v < s_.versions[u].size(); ++v) {
      const UnitImage& img = s_.versions[u][v];
      unsigned length = img.assembled.bytes;
      std::vector<z3::expr> bytes;  // data: in the target's byte order
      for (unsigned k = 0; k < length; ++k) {
        unsigned significance = t_.endian == Endian::Big ? length - 1 - k : k;
        bytes.push_back(img.symbolic.term.extract(8 * significance + 7, 8 * significance).simplify());
      }
      unit.versions.push_back(std::move(bytes));
      unit.versionNames.push_back(s_.versionNames[u][v]);
    }
    overlay->units.push_back(std::move(unit));
  }
  cached = overlay;
  return cached;
}

}  // namespace patchcheck::passes
