#pragma once
// What a trampoline expects when a site calls it: which register holds the
// address where the site resumes, which holds the caller's ra when the call
// itself overwrote ra (the legacy `move at, ra; jal _mcount`), how far the
// site moved sp, and a mode register. Proven separately for its code.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace patchcheck {

struct TrampolineContract {
  std::string symbol;
  std::string resume;                  // register holding the resume address
  std::optional<std::string> savedRa;  // register holding the caller's ra
  int64_t stackAdjust = 0;             // sp at entry = caller's sp + stackAdjust
  std::vector<std::string> clobbers;   // registers the site may change besides ABI-dead ones
  bool proven = false;                 // its code was proven to honour the contract
};

}  // namespace patchcheck
