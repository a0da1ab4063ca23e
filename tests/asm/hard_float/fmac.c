/* Floating-point arguments and results (issue 32): built hard-float (-mfloat-abi=hard, arguments in
   s/d registers) and soft-float (in core registers) by tests/test_hard_float.py. */
float fmac(float a, float b, float c) { return a * b + c; }
float pick3(float a, double d, float b) { (void)d; return b - a; }  /* d takes d1: b back-fills s1 */
int mixed(int i, float f, int j) { return i + (int)f + j; }
void cortexm_emu_halt(void) { for (;;) ; }
/* scale a float array in place by k (a buffer of floats) */
void scale(float *x, unsigned n, float k) { for (unsigned i = 0; i < n; i++) x[i] *= k; }
