/* Forwarding header: the sha256 kernel sources reused here include
 * "sha256_common.h" from their family folder, which is not on this family's
 * include path; this family folder is, so the name resolves here. */
#include "../sha256/sha256_common.h"
