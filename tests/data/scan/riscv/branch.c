/* A branch into another function's patch area on RISC-V (assembled by GCC
 * from the asm statement; with RVC GNU as may make it c.j): patching
 * `target` changes what this path runs. */
int counter;

int target(int x) { return x + counter; }

int jumper(int x) {
  if (x == 12345) __asm__ volatile("j target+4");
  return x * 2;
}
