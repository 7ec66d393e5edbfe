#include "model/riscv/RegisterFile.h"

#include <string>

#include "encoder/riscv/Registers.h"

namespace patchcheck::riscv {

std::vector<RegisterInfo> registerFile(unsigned w, bool fd) {
  std::vector<RegisterInfo> file(fd ? regfile::countWithFloat : regfile::count);
  for (unsigned r = 0; r < 32; ++r) file[r] = RegisterInfo{std::string(gprName(r)), w, r == 0, true, r != 0};
  // Unknown at a function's entry: code before it may have left a
  // reservation (an LR without its SC), at any address.
  file[regfile::reservation] = RegisterInfo{"reservation", 0, false, false, true};
  file[regfile::reservationAddress] = RegisterInfo{"reservation_addr", 64, false, false, true};
  if (!fd) return file;
  for (unsigned r = 0; r < 32; ++r) file[regfile::f(r)] = RegisterInfo{std::string(fprName(r)), 64, false, false, true};
  file[regfile::fflags] = RegisterInfo{"fflags", 5, false, false, true};
  file[regfile::frm] = RegisterInfo{"frm", 3, false, false, true};
  file[regfile::fsOn] = RegisterInfo{"sstatus.FS", 0, false, false, false};  // Off at entry
  return file;
}

}  // namespace patchcheck::riscv
