#include "model/AbiModel.h"

#include <algorithm>

namespace patchcheck {

bool AbiModel::isLive(unsigned r) const {
  return std::find(liveAtEntry.begin(), liveAtEntry.end(), r) != liveAtEntry.end();
}

bool AbiModel::preservedByCall(unsigned r) const {
  return std::find(preserved.begin(), preserved.end(), r) != preserved.end();
}

}  // namespace patchcheck
