/* AES with one T-table per direction: Te_i[x] = ROR8^i(Te0[x]) and Td_i[x] = ROR8^i(Td0[x])
 * computed by rotation (2 KB of tables plus the S-boxes instead of 8 KB): wolfSSL's
 * small-table style. A rotation is free in the operand on Armv7-M, an extra instruction on Armv6-M. */
#include "kernel_ror.h"
#define TE(i, x) ror32(aes_te0[x], 8 * (i))
#define TD(i, x) ror32(aes_td0[x], 8 * (i))
#include "aes_ttable.h"
