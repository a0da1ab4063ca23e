/* Forwarding header: the sha1 kernel sources reused here include
 * "sha1_common.h" from their family folder, which is not on this family's
 * include path; this family folder is, so the name resolves here. */
#include "../sha1/sha1_common.h"
