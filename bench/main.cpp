// Benchmarks: prints figures, asserts nothing. Each area adds a function
// to bench/ and a call here.
#include <cstdio>

namespace patchcheck::bench {
void encoder();
}

int main() {
  patchcheck::bench::encoder();
  return 0;
}
