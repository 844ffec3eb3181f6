// SPDX-License-Identifier: GPL-2.0-only
/*
 * Accounted host memory shared with user space (ascend_umem.h).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/pfn_t.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "ascend_umem.h"

/*
 * Past its memory cgroup's limit a caller gets -ENOMEM rather than the
 * cgroup's OOM killer: a refusal the caller can handle.
 */
#define ASCEND_UMEM_GFP	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

int ascend_umem_alloc(struct ascend_umem *m, size_t size)
{
	unsigned int i, n = size >> PAGE_SHIFT;

	m->npages = 0;
	m->vaddr = NULL;
	m->pages = kvcalloc(n, sizeof(*m->pages), ASCEND_UMEM_GFP);
	if (!m->pages)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		m->pages[i] = alloc_page(ASCEND_UMEM_GFP | __GFP_ZERO);
		if (!m->pages[i])
			goto err;
		m->npages++;
	}
	m->vaddr = vmap(m->pages, n, VM_MAP, PAGE_KERNEL);
	if (!m->vaddr)
		goto err;
	return 0;

err:
	ascend_umem_free(m);
	return -ENOMEM;
}

void ascend_umem_free(struct ascend_umem *m)
{
	unsigned int i;

	if (m->vaddr)
		vunmap(m->vaddr);
	for (i = 0; i < m->npages; i++)
		__free_page(m->pages[i]);
	kvfree(m->pages);
	m->pages = NULL;
	m->npages = 0;
	m->vaddr = NULL;
}

int ascend_umem_mmap(struct ascend_umem *m, struct vm_area_struct *vma)
{
	unsigned long n = vma_pages(vma);

	/* a private (copy-on-write) mapping would stop sharing the pages */
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	/* drm_gem_mmap() checked the VMA is not larger than the object */
	if (n > m->npages)
		return -EINVAL;
	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	return vm_insert_pages(vma, vma->vm_start, m->pages, &n);
}

vm_fault_t ascend_umem_fault(struct ascend_umem *m, struct vm_fault *vmf)
{
	unsigned long idx = (vmf->address - vmf->vma->vm_start) >> PAGE_SHIFT;

	if (idx >= m->npages)
		return VM_FAULT_SIGBUS;
	return vmf_insert_mixed(vmf->vma, vmf->address & PAGE_MASK,
				page_to_pfn_t(m->pages[idx]));
}
