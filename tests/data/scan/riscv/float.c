/* Hard-float code (lp64d, F and D instructions the riscv encoder does not
 * encode) around ftrace sites: the scan only needs their lengths. */
double scale(double x, float y) { return x * y + 1.0; }

float half(float x) { return x / 2.0f; }
