/* Native alignment check for cortexm_emu.alignment: one UC_HOOK_CODE per instruction that the
 * architecture requires aligned whatever CCR.UNALIGN_TRP says (LDRD/STRD/LDM/STM/LDREX/STREX...,
 * ARMv7-M ARM DDI 0403E A3.2.1), which Unicorn 2 lets through unaligned. The hook reads the
 * instruction's base register and, only when it is unaligned, calls back into Python (which
 * names the fault and stops the engine). Aligned code pays a C call and a register read per
 * hooked instruction, not a Python call.
 *
 * Built on first use by cortexm_emu.native.compile_library with the host C compiler; no Unicorn
 * header is needed (uc_reg_read is passed in as a function pointer).
 */
#include <stdint.h>

typedef int (*cac_reg_read_fn)(void *uc, int regid, void *value);
typedef void (*cac_fault_fn)(void *uc, uint64_t address, uint32_t size, void *user);

typedef struct {
    cac_reg_read_fn reg_read;  /* uc_reg_read */
    cac_fault_fn fault;        /* Python: name the fault (IT condition, message), stop */
    uint64_t checks;           /* hooked instructions executed (for the speed notes) */
} cac_state;

typedef struct {
    cac_state *state;
    int32_t reg;    /* Unicorn register id of the base register */
    uint32_t mask;  /* alignment - 1 */
} cac_check;

void cac_code_hook(void *uc, uint64_t address, uint32_t size, void *user) {
    cac_check *check = (cac_check *)user;
    uint64_t value = 0;
    check->state->checks++;
    check->state->reg_read(uc, check->reg, &value);
    if ((uint32_t)value & check->mask) {
        check->state->fault(uc, address, size, 0);
    }
}
