/* SPDX-License-Identifier: MIT */
/*
 * acl.h - the header CANN programs include: the AscendCL runtime API plus the
 * (empty here) operator and model compatibility headers.
 */
#ifndef INC_EXTERNAL_ACL_ACL_H_
#define INC_EXTERNAL_ACL_ACL_H_

#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"

#endif /* INC_EXTERNAL_ACL_ACL_H_ */
