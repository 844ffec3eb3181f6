/* SPDX-License-Identifier: MIT */
/*
 * acl_op.h - compatibility stub.  CANN installs the op API from another
 * package than the runtime; acl.h includes this file, so it exists, but this
 * library implements only the runtime and declares nothing here.
 */
#ifndef INC_EXTERNAL_ACL_ACL_OP_H_
#define INC_EXTERNAL_ACL_ACL_OP_H_

#include "acl_base.h"

#endif /* INC_EXTERNAL_ACL_ACL_OP_H_ */
