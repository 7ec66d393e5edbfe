#include "checker/report/ByteSiteTable.h"

#include <algorithm>
#include <cstdio>

#include "checker/spec/SpecTarget.h"
#include "encoder/Isa.h"

namespace patchcheck {
namespace {

using json = nlohmann::json;

// The unit's bytes in memory order; a byte that depends on a symbol's
// address is empty. Read from the plug-in's term, which holds every byte
// (an x86 instruction may be longer than the 8 bytes Unit::bits holds).
std::vector<std::optional<uint8_t>> unitBytes(const Unit& u, const Target& t, z3::context& c) {
  z3::expr term = t.isa->symbolic(u, t, c, [&](const std::string& s) { return c.bv_const(s.c_str(), 64); }).term;
  bool big = t.isa->byteOrder(u, t) == Endian::Big;
  std::vector<std::optional<uint8_t>> out;
  for (unsigned k = 0; k < u.bytes; ++k) {
    unsigned at = 8 * (big ? u.bytes - 1 - k : k);
    z3::expr b = term.extract(at + 7, at).simplify();
    uint64_t v = 0;
    out.push_back(b.is_numeral() && b.is_numeral_u64(v) ? std::optional<uint8_t>(uint8_t(v)) : std::nullopt);
  }
  return out;
}

const char* fitsName(Relocation::Fits f) {
  switch (f) {
    case Relocation::Fits::Signed: return "signed";
    case Relocation::Fits::Unsigned: return "unsigned";
    case Relocation::Fits::Unchecked: return "unchecked";
  }
  return "?";
}

// How the placement-dependent bytes are formed: the relocation's value,
// little-endian in whole bytes of the instruction. Nothing when the
// plug-in's field is not such a run of bytes, or leaves a dependent byte
// outside it.
std::optional<json> fieldJson(const Unit& u, const Target& t, const std::vector<std::optional<uint8_t>>& bytes) {
  auto r = t.isa->relocation(u);
  if (!r || r->pieces.size() != 1 || t.isa->byteOrder(u, t) != Endian::Little) return std::nullopt;
  const Relocation::Piece& p = r->pieces.front();
  if (p.from != 0 || p.at % 8 || p.width % 8 || p.width == 0 || p.at / 8 + p.width / 8 > u.bytes) return std::nullopt;
  unsigned first = p.at / 8, count = p.width / 8;
  for (unsigned k = 0; k < bytes.size(); ++k)
    if (!bytes[k] && (k < first || k >= first + count)) return std::nullopt;
  json f{{"at", first},         {"bytes", count},      {"kind", r->kind},     {"symbol", r->value.symbol},
         {"addend", r->value.addend}, {"formula", r->formula}, {"fits", fitsName(r->fits)}, {"text", r->text}};
  if (r->relativeTo) {
    f["slot_symbol"] = r->relativeTo->symbol;
    f["slot_addend"] = r->relativeTo->addend;
  }
  return f;
}

// The `to` state's instructions that bytes [first, last] belong to.
std::string instructionsAt(const json& instructions, unsigned first, unsigned last) {
  std::string out;
  for (const json& i : instructions) {
    unsigned at = i["offset"], n = i["length"];
    if (at + n > first && at <= last) out += (out.empty() ? "" : "; ") + i["text"].get<std::string>();
  }
  return out;
}

}  // namespace

std::string byteText(const std::vector<std::optional<uint8_t>>& bytes) {
  std::string out;
  char b[4];
  for (const auto& x : bytes) {
    if (x) snprintf(b, sizeof b, "%02x", unsigned(*x));
    out += (out.empty() ? "" : " ") + (x ? std::string(b) : std::string("??"));
  }
  return out;
}

std::variant<json, Diagnostics> byteSiteInstructions(const Spec& spec, const StateSpec& state, const Target& t,
                                                     z3::context& c) {
  auto a = assembleState(spec, state, t);
  if (auto* e = std::get_if<Diagnostics>(&a)) return *e;
  json out = json::array();
  unsigned offset = 0;
  const std::vector<Unit>& units = std::get<Program>(a).units;
  for (size_t i = 0; i < state.words.size() && i < units.size(); ++i) {  // the body's units follow
    const Unit& u = units[i];
    std::vector<std::optional<uint8_t>> bytes = unitBytes(u, t, c);
    json j{{"offset", offset}, {"length", u.bytes}, {"text", state.words[i].text}};
    bool concrete = std::all_of(bytes.begin(), bytes.end(), [](const auto& b) { return b.has_value(); });
    if (concrete) {
      j["code"] = byteText(bytes);
    } else if (auto f = fieldJson(u, t, bytes)) {
      j["fixed"] = byteText(bytes);
      j["field"] = *f;
    } else {
      // RISC-V (C) fields are bit fields (auipc's imm[31:12]): no form here yet.
      if (t.isa->patchUnitBytes(t) != 1)
        return Diagnostics{{state.words[i].where, "'" + state.words[i].text + "': a " + std::string(t.isa->family()) +
                                                      " byte site has no patch table form yet: its address-dependent "
                                                      "fields are bit fields, not whole bytes"}};
      return Diagnostics{{state.words[i].where, "'" + state.words[i].text + "': its bytes depend on addresses in a way "
                                                "a patch table cannot describe as a field of whole bytes"}};
    }
    out.push_back(j);
    offset += u.bytes;
  }
  return out;
}

std::variant<json, Diagnostics> byteSiteSteps(const Spec& spec, const TransitionSpec& tr, const Target& t,
                                              const std::function<json(const std::string&)>& instructionsOf) {
  const json toInstructions = instructionsOf(tr.to);
  json out = json::array();
  for (const StepSpec& s : tr.steps) {
    switch (s.kind) {
      case StepSpec::Kind::Write: {
        if (s.continuesRange()) break;  // one write of the whole range
        if (s.interim) {
          auto a = assembleUnit(spec, *s.interim, s.index, t);
          if (auto* e = std::get_if<Diagnostics>(&a)) return *e;
          const Unit& u = std::get<Unit>(a);
          if (!u.isConcrete() || u.bytes != 1)
            return Diagnostics{{s.interim->where, "'" + s.interim->text + "': an interim write of a byte site is one byte"}};
          out.push_back({{"op", "write"},      {"index", s.index},         {"bytes", 1},
                         {"interim", true},    {"text", s.interim->text},  {"code", byteText({uint8_t(u.bits)})}});
          break;
        }
        unsigned last = s.range ? s.range->second : s.index;
        const json source = s.source.empty() ? json() : instructionsOf(s.source);
        json w{{"op", "write"},
               {"index", s.index},
               {"bytes", last - s.index + 1},
               {"text", instructionsAt(s.source.empty() ? toInstructions : source, s.index - spec.entryUnit(),
                                       last - spec.entryUnit())}};
        if (!s.source.empty()) w["state"] = s.source;
        out.push_back(w);
        break;
      }
      // A byte site's serialisation (the loader's sync_core).
      case StepSpec::Kind::Flush:
        // The header's step codes are text_poke_bp's (x86).
        if (spec.model.fetch && spec.model.fetch->fullBarrier() != "sync_core")
          return Diagnostics{{s.where, "'" + s.text + "': a byte site's patch table has x86's steps only "
                                                      "(write, sync_core, wait); this step has no form there"}};
        out.push_back({{"op", "sync_core"}});
        break;
      case StepSpec::Kind::Wait: out.push_back({{"op", "wait"}}); break;
      case StepSpec::Kind::IrqWindow: out.push_back({{"op", "irq_window"}}); break;
      default:
        return Diagnostics{{s.where, "'" + s.text + "': a byte site's patch table has no form for this step"}};
    }
  }
  return out;
}

}  // namespace patchcheck
