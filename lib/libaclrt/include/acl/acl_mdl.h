/* SPDX-License-Identifier: MIT */
/*
 * acl_mdl.h - compatibility stub.  CANN installs the mdl API from another
 * package than the runtime; acl.h includes this file, so it exists, but this
 * library implements only the runtime and declares nothing here.
 */
#ifndef INC_EXTERNAL_ACL_ACL_MDL_H_
#define INC_EXTERNAL_ACL_ACL_MDL_H_

#include "acl_base.h"

#endif /* INC_EXTERNAL_ACL_ACL_MDL_H_ */
