/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host memory the driver shares with user space by mmap() (queue areas,
 * free rings): whole pages from alloc_page(GFP_KERNEL_ACCOUNT), so they
 * are charged to the memory cgroup of the process that caused them (the
 * vmalloc_user() buffers they replace could not be), mapped into the
 * kernel with vmap() and into user space with vm_insert_pages().
 */
#ifndef __ASCEND_UMEM_H__
#define __ASCEND_UMEM_H__

#include <linux/mm_types.h>
#include <linux/types.h>

/**
 * struct ascend_umem - zeroed pages, one kernel mapping
 * @pages: the pages
 * @npages: how many
 * @vaddr: their kernel mapping, @npages * PAGE_SIZE bytes
 */
struct ascend_umem {
	struct page **pages;
	unsigned int npages;
	void *vaddr;
};

/* @size bytes (a multiple of PAGE_SIZE): 0 or -ENOMEM. */
int ascend_umem_alloc(struct ascend_umem *m, size_t size);
void ascend_umem_free(struct ascend_umem *m);

/* A GEM object's .mmap: all of @m into @vma, which must be shared. */
int ascend_umem_mmap(struct ascend_umem *m, struct vm_area_struct *vma);

/*
 * Fault handler body: mappings are only zapped when the device is
 * unplugged (drm_dev_unplug()); the memory lives with its object, so a
 * later touch maps the page again rather than killing with SIGBUS.
 */
vm_fault_t ascend_umem_fault(struct ascend_umem *m, struct vm_fault *vmf);

#endif /* __ASCEND_UMEM_H__ */
