#include "tests/oracle/support/KnownDisagreements.h"

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace patchcheck::oracle {

bool DisagreementKey::operator<(const DisagreementKey& o) const {
  return std::tie(kind, isa, mnemonic) < std::tie(o.kind, o.isa, o.mnemonic);
}

bool KnownDisagreement::covers(const DisagreementKey& k) const {
  if (kind != k.kind || mnemonic != k.mnemonic) return false;
  if (isas == "*") return true;
  std::stringstream in(isas);
  std::string i;
  while (std::getline(in, i, ','))
    if (i == k.isa) return true;
  return false;
}

std::vector<KnownDisagreement> readKnownDisagreements(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::vector<KnownDisagreement> out;
  std::string line;
  unsigned n = 0;
  while (std::getline(f, line)) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    KnownDisagreement k;
    in >> k.kind >> k.isas >> k.mnemonic;
    std::getline(in, k.reason);
    size_t start = k.reason.find_first_not_of(" \t");
    k.reason = start == std::string::npos ? "" : k.reason.substr(start);
    if (k.reason.empty() || (k.kind != "rejects" && k.kind != "encodes" && k.kind != "accepts" &&
                             k.kind != "fails"))
      throw std::runtime_error(path + ":" + std::to_string(n) +
                               ": want `rejects|encodes|accepts|fails ISAS MNEMONIC reason`");
    out.push_back(k);
  }
  return out;
}

void Observed::add(const DisagreementKey& k, const std::string& example) {
  auto& v = examples[k];
  if (v.size() < 3) v.push_back(example);
}

DisagreementTally reportDisagreements(const Observed& seen, const std::vector<KnownDisagreement>& known) {
  DisagreementTally t;
  std::set<size_t> used;
  for (auto& [key, examples] : seen.examples) {
    size_t hit = known.size();
    for (size_t i = 0; i < known.size(); ++i)
      if (known[i].covers(key)) hit = i;
    if (hit < known.size()) {
      used.insert(hit);
      ++t.recorded;
      std::printf("known: LLVM %s '%s' on %s: %s\n", key.kind.c_str(), key.mnemonic.c_str(), key.isa.c_str(),
                  known[hit].reason.c_str());
    } else {
      ++t.unrecorded;
      std::printf("FAIL unrecorded: LLVM %s '%s' on %s, e.g.\n", key.kind.c_str(), key.mnemonic.c_str(),
                  key.isa.c_str());
      for (auto& e : examples) std::printf("    %s\n", e.c_str());
    }
  }
  for (size_t i = 0; i < known.size(); ++i)
    if (!used.count(i))
      std::printf("note: recorded disagreement no longer seen: %s %s %s\n", known[i].kind.c_str(),
                  known[i].isas.c_str(), known[i].mnemonic.c_str());
  return t;
}

std::string mnemonicOf(const std::string& text) { return text.substr(0, text.find_first_of(" \t")); }

}  // namespace patchcheck::oracle
