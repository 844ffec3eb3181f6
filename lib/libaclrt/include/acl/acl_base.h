/* SPDX-License-Identifier: MIT */
/*
 * acl_base.h - umbrella for the AscendCL base definitions, laid out like
 * CANN's: the include root is the directory containing acl/, while
 * error_codes/ is found relative to this file.
 */
#ifndef INC_EXTERNAL_ACL_ACL_BASE_H_
#define INC_EXTERNAL_ACL_ACL_BASE_H_

#include "acl/acl_base_rt.h"
#include "acl/acl_base_mdl.h"
#include "error_codes/rt_error_codes.h"
#include "error_codes/ge_error_codes.h"

#endif /* INC_EXTERNAL_ACL_ACL_BASE_H_ */
