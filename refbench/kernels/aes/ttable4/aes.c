/* AES with four 1 KB T-tables Te0..Te3 (and Td0..Td3 for the equivalent inverse cipher,
 * FIPS 197 §5.3.5): one lookup per byte per round, no rotations; 8 KB of tables plus the
 * S-boxes. The OpenSSL/mbed TLS default on cores without AES instructions. */
#define TE(i, x) aes_te##i[x]
#define TD(i, x) aes_td##i[x]
#include "aes_ttable.h"
