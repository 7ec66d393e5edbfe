#include "encoder/riscv/Csrs.h"

#include <algorithm>
#include <array>

namespace patchcheck::riscv {
namespace {

struct Named {
  uint16_t number;
  std::string_view name;
  bool printed;  // objdump's name for the number; otherwise GNU as only accepts it
};

// The CSRs of the RISC-V Privileged ISA (chapter 2, Tables 2.2-2.6, with
// the Sstc, Smstateen, AIA, debug (Sdtrig/Sdext), vector and Zkr entries)
// by number, as GNU binutils 2.40 names them. GNU as accepts every name of
// every privileged-spec version; objdump prints the names of version 1.11,
// which GNU as records in an object that uses a CSR (Tag_RISCV_priv_spec
// 1.11: ustatus and the N extension's CSRs, no senvcfg or mstatush).
// Sorted by number.
constexpr Named kCsrs[] = {
    {0x000, "ustatus", true}, {0x001, "fflags", true}, {0x002, "frm", true}, {0x003, "fcsr", true},
    {0x004, "uie", true}, {0x005, "utvec", true}, {0x008, "vstart", true}, {0x009, "vxsat", true},
    {0x00a, "vxrm", true}, {0x00f, "vcsr", true}, {0x015, "seed", true}, {0x040, "uscratch", true},
    {0x041, "uepc", true}, {0x042, "ucause", true}, {0x043, "utval", true}, {0x044, "uip", true},
    {0x100, "sstatus", true}, {0x102, "sedeleg", true}, {0x103, "sideleg", true}, {0x104, "sie", true},
    {0x105, "stvec", true}, {0x106, "scounteren", true}, {0x10a, "senvcfg", false}, {0x10c, "sstateen0", true},
    {0x10d, "sstateen1", true}, {0x10e, "sstateen2", true}, {0x10f, "sstateen3", true}, {0x114, "sieh", true},
    {0x140, "sscratch", true}, {0x141, "sepc", true}, {0x142, "scause", true}, {0x143, "stval", true},
    {0x144, "sip", true}, {0x14d, "stimecmp", true}, {0x150, "siselect", true}, {0x151, "sireg", true},
    {0x154, "siph", true}, {0x15c, "stopei", true}, {0x15d, "stimecmph", true}, {0x180, "satp", true},
    {0x200, "vsstatus", true}, {0x204, "vsie", true}, {0x205, "vstvec", true}, {0x214, "vsieh", true},
    {0x240, "vsscratch", true}, {0x241, "vsepc", true}, {0x242, "vscause", true}, {0x243, "vstval", true},
    {0x244, "vsip", true}, {0x24d, "vstimecmp", true}, {0x250, "vsiselect", true}, {0x251, "vsireg", true},
    {0x254, "vsiph", true}, {0x25c, "vstopei", true}, {0x25d, "vstimecmph", true}, {0x280, "vsatp", true},
    {0x300, "mstatus", true}, {0x301, "misa", true}, {0x302, "medeleg", true}, {0x303, "mideleg", true},
    {0x304, "mie", true}, {0x305, "mtvec", true}, {0x306, "mcounteren", true}, {0x308, "mvien", true},
    {0x309, "mvip", true}, {0x30a, "menvcfg", false}, {0x30c, "mstateen0", true}, {0x30d, "mstateen1", true},
    {0x30e, "mstateen2", true}, {0x30f, "mstateen3", true}, {0x310, "mstatush", false}, {0x313, "midelegh", true},
    {0x314, "mieh", true}, {0x318, "mvienh", true}, {0x319, "mviph", true}, {0x31a, "menvcfgh", false},
    {0x31c, "mstateen0h", true}, {0x31d, "mstateen1h", true}, {0x31e, "mstateen2h", true},
    {0x31f, "mstateen3h", true}, {0x320, "mcountinhibit", true}, {0x323, "mhpmevent3", true},
    {0x324, "mhpmevent4", true}, {0x325, "mhpmevent5", true}, {0x326, "mhpmevent6", true},
    {0x327, "mhpmevent7", true}, {0x328, "mhpmevent8", true}, {0x329, "mhpmevent9", true},
    {0x32a, "mhpmevent10", true}, {0x32b, "mhpmevent11", true}, {0x32c, "mhpmevent12", true},
    {0x32d, "mhpmevent13", true}, {0x32e, "mhpmevent14", true}, {0x32f, "mhpmevent15", true},
    {0x330, "mhpmevent16", true}, {0x331, "mhpmevent17", true}, {0x332, "mhpmevent18", true},
    {0x333, "mhpmevent19", true}, {0x334, "mhpmevent20", true}, {0x335, "mhpmevent21", true},
    {0x336, "mhpmevent22", true}, {0x337, "mhpmevent23", true}, {0x338, "mhpmevent24", true},
    {0x339, "mhpmevent25", true}, {0x33a, "mhpmevent26", true}, {0x33b, "mhpmevent27", true},
    {0x33c, "mhpmevent28", true}, {0x33d, "mhpmevent29", true}, {0x33e, "mhpmevent30", true},
    {0x33f, "mhpmevent31", true}, {0x340, "mscratch", true}, {0x341, "mepc", true}, {0x342, "mcause", true},
    {0x343, "mtval", true}, {0x344, "mip", true}, {0x34a, "mtinst", false}, {0x34b, "mtval2", false},
    {0x350, "miselect", true}, {0x351, "mireg", true}, {0x354, "miph", true}, {0x35c, "mtopei", true},
    {0x3a0, "pmpcfg0", true}, {0x3a1, "pmpcfg1", true}, {0x3a2, "pmpcfg2", true}, {0x3a3, "pmpcfg3", true},
    {0x3a4, "pmpcfg4", false}, {0x3a5, "pmpcfg5", false}, {0x3a6, "pmpcfg6", false}, {0x3a7, "pmpcfg7", false},
    {0x3a8, "pmpcfg8", false}, {0x3a9, "pmpcfg9", false}, {0x3aa, "pmpcfg10", false}, {0x3ab, "pmpcfg11", false},
    {0x3ac, "pmpcfg12", false}, {0x3ad, "pmpcfg13", false}, {0x3ae, "pmpcfg14", false}, {0x3af, "pmpcfg15", false},
    {0x3b0, "pmpaddr0", true}, {0x3b1, "pmpaddr1", true}, {0x3b2, "pmpaddr2", true}, {0x3b3, "pmpaddr3", true},
    {0x3b4, "pmpaddr4", true}, {0x3b5, "pmpaddr5", true}, {0x3b6, "pmpaddr6", true}, {0x3b7, "pmpaddr7", true},
    {0x3b8, "pmpaddr8", true}, {0x3b9, "pmpaddr9", true}, {0x3ba, "pmpaddr10", true}, {0x3bb, "pmpaddr11", true},
    {0x3bc, "pmpaddr12", true}, {0x3bd, "pmpaddr13", true}, {0x3be, "pmpaddr14", true}, {0x3bf, "pmpaddr15", true},
    {0x3c0, "pmpaddr16", false}, {0x3c1, "pmpaddr17", false}, {0x3c2, "pmpaddr18", false},
    {0x3c3, "pmpaddr19", false}, {0x3c4, "pmpaddr20", false}, {0x3c5, "pmpaddr21", false},
    {0x3c6, "pmpaddr22", false}, {0x3c7, "pmpaddr23", false}, {0x3c8, "pmpaddr24", false},
    {0x3c9, "pmpaddr25", false}, {0x3ca, "pmpaddr26", false}, {0x3cb, "pmpaddr27", false},
    {0x3cc, "pmpaddr28", false}, {0x3cd, "pmpaddr29", false}, {0x3ce, "pmpaddr30", false},
    {0x3cf, "pmpaddr31", false}, {0x3d0, "pmpaddr32", false}, {0x3d1, "pmpaddr33", false},
    {0x3d2, "pmpaddr34", false}, {0x3d3, "pmpaddr35", false}, {0x3d4, "pmpaddr36", false},
    {0x3d5, "pmpaddr37", false}, {0x3d6, "pmpaddr38", false}, {0x3d7, "pmpaddr39", false},
    {0x3d8, "pmpaddr40", false}, {0x3d9, "pmpaddr41", false}, {0x3da, "pmpaddr42", false},
    {0x3db, "pmpaddr43", false}, {0x3dc, "pmpaddr44", false}, {0x3dd, "pmpaddr45", false},
    {0x3de, "pmpaddr46", false}, {0x3df, "pmpaddr47", false}, {0x3e0, "pmpaddr48", false},
    {0x3e1, "pmpaddr49", false}, {0x3e2, "pmpaddr50", false}, {0x3e3, "pmpaddr51", false},
    {0x3e4, "pmpaddr52", false}, {0x3e5, "pmpaddr53", false}, {0x3e6, "pmpaddr54", false},
    {0x3e7, "pmpaddr55", false}, {0x3e8, "pmpaddr56", false}, {0x3e9, "pmpaddr57", false},
    {0x3ea, "pmpaddr58", false}, {0x3eb, "pmpaddr59", false}, {0x3ec, "pmpaddr60", false},
    {0x3ed, "pmpaddr61", false}, {0x3ee, "pmpaddr62", false}, {0x3ef, "pmpaddr63", false}, {0x5a8, "scontext", true},
    {0x600, "hstatus", true}, {0x602, "hedeleg", true}, {0x603, "hideleg", true}, {0x604, "hie", true},
    {0x605, "htimedelta", true}, {0x606, "hcounteren", true}, {0x607, "hgeie", true}, {0x608, "hvien", true},
    {0x609, "hvictl", true}, {0x60a, "henvcfg", true}, {0x60c, "hstateen0", true}, {0x60d, "hstateen1", true},
    {0x60e, "hstateen2", true}, {0x60f, "hstateen3", true}, {0x613, "hidelegh", true}, {0x615, "htimedeltah", true},
    {0x618, "hvienh", true}, {0x61a, "henvcfgh", true}, {0x61c, "hstateen0h", true}, {0x61d, "hstateen1h", true},
    {0x61e, "hstateen2h", true}, {0x61f, "hstateen3h", true}, {0x643, "htval", true}, {0x644, "hip", true},
    {0x645, "hvip", true}, {0x646, "hviprio1", true}, {0x647, "hviprio2", true}, {0x64a, "htinst", true},
    {0x655, "hviph", true}, {0x656, "hviprio1h", true}, {0x657, "hviprio2h", true}, {0x680, "hgatp", true},
    {0x6a8, "hcontext", true}, {0x723, "mhpmevent3h", true}, {0x724, "mhpmevent4h", true},
    {0x725, "mhpmevent5h", true}, {0x726, "mhpmevent6h", true}, {0x727, "mhpmevent7h", true},
    {0x728, "mhpmevent8h", true}, {0x729, "mhpmevent9h", true}, {0x72a, "mhpmevent10h", true},
    {0x72b, "mhpmevent11h", true}, {0x72c, "mhpmevent12h", true}, {0x72d, "mhpmevent13h", true},
    {0x72e, "mhpmevent14h", true}, {0x72f, "mhpmevent15h", true}, {0x730, "mhpmevent16h", true},
    {0x731, "mhpmevent17h", true}, {0x732, "mhpmevent18h", true}, {0x733, "mhpmevent19h", true},
    {0x734, "mhpmevent20h", true}, {0x735, "mhpmevent21h", true}, {0x736, "mhpmevent22h", true},
    {0x737, "mhpmevent23h", true}, {0x738, "mhpmevent24h", true}, {0x739, "mhpmevent25h", true},
    {0x73a, "mhpmevent26h", true}, {0x73b, "mhpmevent27h", true}, {0x73c, "mhpmevent28h", true},
    {0x73d, "mhpmevent29h", true}, {0x73e, "mhpmevent30h", true}, {0x73f, "mhpmevent31h", true},
    {0x747, "mseccfg", false}, {0x757, "mseccfgh", false}, {0x7a0, "tselect", true}, {0x7a1, "tdata1", true},
    {0x7a2, "tdata2", true}, {0x7a3, "tdata3", true}, {0x7a4, "tinfo", true}, {0x7a5, "tcontrol", true},
    {0x7a8, "mcontext", true}, {0x7aa, "mscontext", true}, {0x7b0, "dcsr", true}, {0x7b1, "dpc", true},
    {0x7b2, "dscratch0", true}, {0x7b3, "dscratch1", true}, {0xb00, "mcycle", true}, {0xb02, "minstret", true},
    {0xb03, "mhpmcounter3", true}, {0xb04, "mhpmcounter4", true}, {0xb05, "mhpmcounter5", true},
    {0xb06, "mhpmcounter6", true}, {0xb07, "mhpmcounter7", true}, {0xb08, "mhpmcounter8", true},
    {0xb09, "mhpmcounter9", true}, {0xb0a, "mhpmcounter10", true}, {0xb0b, "mhpmcounter11", true},
    {0xb0c, "mhpmcounter12", true}, {0xb0d, "mhpmcounter13", true}, {0xb0e, "mhpmcounter14", true},
    {0xb0f, "mhpmcounter15", true}, {0xb10, "mhpmcounter16", true}, {0xb11, "mhpmcounter17", true},
    {0xb12, "mhpmcounter18", true}, {0xb13, "mhpmcounter19", true}, {0xb14, "mhpmcounter20", true},
    {0xb15, "mhpmcounter21", true}, {0xb16, "mhpmcounter22", true}, {0xb17, "mhpmcounter23", true},
    {0xb18, "mhpmcounter24", true}, {0xb19, "mhpmcounter25", true}, {0xb1a, "mhpmcounter26", true},
    {0xb1b, "mhpmcounter27", true}, {0xb1c, "mhpmcounter28", true}, {0xb1d, "mhpmcounter29", true},
    {0xb1e, "mhpmcounter30", true}, {0xb1f, "mhpmcounter31", true}, {0xb80, "mcycleh", true},
    {0xb82, "minstreth", true}, {0xb83, "mhpmcounter3h", true}, {0xb84, "mhpmcounter4h", true},
    {0xb85, "mhpmcounter5h", true}, {0xb86, "mhpmcounter6h", true}, {0xb87, "mhpmcounter7h", true},
    {0xb88, "mhpmcounter8h", true}, {0xb89, "mhpmcounter9h", true}, {0xb8a, "mhpmcounter10h", true},
    {0xb8b, "mhpmcounter11h", true}, {0xb8c, "mhpmcounter12h", true}, {0xb8d, "mhpmcounter13h", true},
    {0xb8e, "mhpmcounter14h", true}, {0xb8f, "mhpmcounter15h", true}, {0xb90, "mhpmcounter16h", true},
    {0xb91, "mhpmcounter17h", true}, {0xb92, "mhpmcounter18h", true}, {0xb93, "mhpmcounter19h", true},
    {0xb94, "mhpmcounter20h", true}, {0xb95, "mhpmcounter21h", true}, {0xb96, "mhpmcounter22h", true},
    {0xb97, "mhpmcounter23h", true}, {0xb98, "mhpmcounter24h", true}, {0xb99, "mhpmcounter25h", true},
    {0xb9a, "mhpmcounter26h", true}, {0xb9b, "mhpmcounter27h", true}, {0xb9c, "mhpmcounter28h", true},
    {0xb9d, "mhpmcounter29h", true}, {0xb9e, "mhpmcounter30h", true}, {0xb9f, "mhpmcounter31h", true},
    {0xc00, "cycle", true}, {0xc01, "time", true}, {0xc02, "instret", true}, {0xc03, "hpmcounter3", true},
    {0xc04, "hpmcounter4", true}, {0xc05, "hpmcounter5", true}, {0xc06, "hpmcounter6", true},
    {0xc07, "hpmcounter7", true}, {0xc08, "hpmcounter8", true}, {0xc09, "hpmcounter9", true},
    {0xc0a, "hpmcounter10", true}, {0xc0b, "hpmcounter11", true}, {0xc0c, "hpmcounter12", true},
    {0xc0d, "hpmcounter13", true}, {0xc0e, "hpmcounter14", true}, {0xc0f, "hpmcounter15", true},
    {0xc10, "hpmcounter16", true}, {0xc11, "hpmcounter17", true}, {0xc12, "hpmcounter18", true},
    {0xc13, "hpmcounter19", true}, {0xc14, "hpmcounter20", true}, {0xc15, "hpmcounter21", true},
    {0xc16, "hpmcounter22", true}, {0xc17, "hpmcounter23", true}, {0xc18, "hpmcounter24", true},
    {0xc19, "hpmcounter25", true}, {0xc1a, "hpmcounter26", true}, {0xc1b, "hpmcounter27", true},
    {0xc1c, "hpmcounter28", true}, {0xc1d, "hpmcounter29", true}, {0xc1e, "hpmcounter30", true},
    {0xc1f, "hpmcounter31", true}, {0xc20, "vl", true}, {0xc21, "vtype", true}, {0xc22, "vlenb", true},
    {0xc80, "cycleh", true}, {0xc81, "timeh", true}, {0xc82, "instreth", true}, {0xc83, "hpmcounter3h", true},
    {0xc84, "hpmcounter4h", true}, {0xc85, "hpmcounter5h", true}, {0xc86, "hpmcounter6h", true},
    {0xc87, "hpmcounter7h", true}, {0xc88, "hpmcounter8h", true}, {0xc89, "hpmcounter9h", true},
    {0xc8a, "hpmcounter10h", true}, {0xc8b, "hpmcounter11h", true}, {0xc8c, "hpmcounter12h", true},
    {0xc8d, "hpmcounter13h", true}, {0xc8e, "hpmcounter14h", true}, {0xc8f, "hpmcounter15h", true},
    {0xc90, "hpmcounter16h", true}, {0xc91, "hpmcounter17h", true}, {0xc92, "hpmcounter18h", true},
    {0xc93, "hpmcounter19h", true}, {0xc94, "hpmcounter20h", true}, {0xc95, "hpmcounter21h", true},
    {0xc96, "hpmcounter22h", true}, {0xc97, "hpmcounter23h", true}, {0xc98, "hpmcounter24h", true},
    {0xc99, "hpmcounter25h", true}, {0xc9a, "hpmcounter26h", true}, {0xc9b, "hpmcounter27h", true},
    {0xc9c, "hpmcounter28h", true}, {0xc9d, "hpmcounter29h", true}, {0xc9e, "hpmcounter30h", true},
    {0xc9f, "hpmcounter31h", true}, {0xda0, "scountovf", true}, {0xdb0, "stopi", true}, {0xe12, "hgeip", true},
    {0xeb0, "vstopi", true}, {0xf11, "mvendorid", true}, {0xf12, "marchid", true}, {0xf13, "mimpid", true},
    {0xf14, "mhartid", true}, {0xf15, "mconfigptr", false}, {0xfb0, "mtopi", true},
};

}  // namespace

std::optional<std::string_view> csrName(unsigned number) {
  auto it = std::lower_bound(std::begin(kCsrs), std::end(kCsrs), number,
                             [](const Named& n, unsigned v) { return n.number < v; });
  for (; it != std::end(kCsrs) && it->number == number; ++it)
    if (it->printed) return it->name;
  return std::nullopt;
}

std::optional<unsigned> csrNumber(std::string_view name) {
  for (const Named& n : kCsrs)
    if (n.name == name) return n.number;
  return std::nullopt;
}

}  // namespace patchcheck::riscv
