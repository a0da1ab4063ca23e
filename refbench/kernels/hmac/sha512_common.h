/* Forwarding header: the sha512 kernel sources reused here include
 * "sha512_common.h" from their family folder, which is not on this family's
 * include path; this family folder is, so the name resolves here. */
#include "../sha512/sha512_common.h"
