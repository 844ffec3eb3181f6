/* SPDX-License-Identifier: MIT */
/*
 * acl_base_mdl.h - compatibility stub.  In CANN the model/operator base types
 * are installed by other packages than the runtime; this library implements
 * only the runtime, so the file exists (acl_base.h includes it) but is empty.
 */
#ifndef INC_EXTERNAL_ACL_ACL_BASE_MDL_H_
#define INC_EXTERNAL_ACL_ACL_BASE_MDL_H_

#endif /* INC_EXTERNAL_ACL_ACL_BASE_MDL_H_ */
