// Benchmarks: prints figures, asserts nothing. Each area adds a function
// to bench/ and an entry here; `patchcheck_bench AREA...` runs only those.
#include <cstdio>
#include <cstring>

namespace patchcheck::bench {
void encoder();
void arm64Encoder();
void matrix();
void litmus();
void herd7();
void x86Fetch();
void scaling();
void synthesis();
void batch();
}

int main(int argc, char** argv) {
  struct Area {
    const char* name;
    void (*run)();
  };
  const Area areas[] = {{"encoder", patchcheck::bench::encoder},
                        {"arm64-encoder", patchcheck::bench::arm64Encoder},
                        {"matrix", patchcheck::bench::matrix},
                        {"litmus", patchcheck::bench::litmus},
                        {"herd7", patchcheck::bench::herd7},
                        {"x86-fetch", patchcheck::bench::x86Fetch},
                        {"scaling", patchcheck::bench::scaling},
                        {"synthesis", patchcheck::bench::synthesis},
                        {"batch", patchcheck::bench::batch}};
  for (int k = 1; k < argc; ++k) {
    bool known = false;
    for (const Area& a : areas) known = known || std::strcmp(argv[k], a.name) == 0;
    if (!known) {
      std::fprintf(stderr, "patchcheck_bench: no area '%s' (areas:", argv[k]);
      for (const Area& a : areas) std::fprintf(stderr, " %s", a.name);
      std::fprintf(stderr, ")\n");
      return 2;
    }
  }
  for (const Area& a : areas) {
    bool wanted = argc == 1;
    for (int k = 1; k < argc; ++k) wanted = wanted || std::strcmp(argv[k], a.name) == 0;
    if (wanted) a.run();
  }
  return 0;
}
