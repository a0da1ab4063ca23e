/* FPU data processing for tests/test_fpu_cores.py: multiply-add, divide, an int to float
   conversion with an immediate, and (FPv5-D16, M7 only) a double multiply-add. */
float fmac(float a, float b, float c) { return a * b + c; }
float fdivide(float a, float b) { return a / b; }
float fconv(int i) { return (float)i + 0.5f; }
#if defined(__ARM_FP) && (__ARM_FP & 8)
double dmac(double a, double b, double c) { return a * b + c; }
#endif
void cortexm_emu_halt(void) { for (;;) ; }
