// The site region's units as a spec names them (Spec.h): data units before
// F, the words from F's entry, then the body's words.
#include "checker/spec/Spec.h"
#include "encoder/Isa.h"

namespace patchcheck {

unsigned Spec::beforeBytes() const {
  unsigned n = 0;
  for (const DataUnitSpec& u : before) n += u.bytes;
  return n;
}

unsigned Spec::unitBytes(const Target& t) const { return byteUnits ? 1 : t.isa->patchUnitBytes(t); }

std::optional<unsigned> Spec::unitIndex(long long i) const {
  long long u = i + (long long)entryUnit();
  if (u < 0 || u >= (long long)regionUnits()) return std::nullopt;
  return unsigned(u);
}

std::string StepSpec::ownText(const Spec& spec) const {
  if (kind != Kind::Write || !range) return text;
  return "write " + std::to_string(spec.writeIndex(index));
}

std::string Spec::unitName(unsigned u) const {
  if (u < entryUnit()) {
    unsigned back = 0;
    for (unsigned k = u; k < entryUnit(); ++k) back += before[k].bytes;
    return "data " + function + "-" + std::to_string(back);
  }
  if (u < siteUnits()) return (byteUnits ? "byte " : "word ") + std::to_string(u - entryUnit());
  return (byteUnits ? "body byte " : "body ") + std::to_string(u - siteUnits());
}

}  // namespace patchcheck
