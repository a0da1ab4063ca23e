/* Forwarding header: the md5 kernel sources reused here include
 * "md5_common.h" from their family folder, which is not on this family's
 * include path; this family folder is, so the name resolves here. */
#include "../md5/md5_common.h"
