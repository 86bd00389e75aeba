/* SPDX-License-Identifier: MIT */
/*
 * huge_memory.c — transparent huge pages for anonymous memory: which
 * faults may use a PMD-sized folio and with which gfp (mm/huge_memory.c,
 * include/linux/huge_mm.h; Linux 6.12).  The fault itself is
 * do_huge_pmd_anonymous_page in memory.c.
 *
 * transparent_hugepage/enabled: always -> every anonymous VMA without
 * MADV_NOHUGEPAGE; madvise -> only VMAs with MADV_HUGEPAGE; never -> none.
 * The 2 MiB-aligned range around the address must lie inside the VMA.
 *
 * transparent_hugepage/defrag -> gfp (vma_thp_gfp_mask):
 *   always        GFP_TRANSHUGE | (MADV_HUGEPAGE ? 0 : __GFP_NORETRY)
 *   defer         GFP_TRANSHUGE_LIGHT | __GFP_KSWAPD_RECLAIM
 *   defer+madvise GFP_TRANSHUGE_LIGHT | (MADV_HUGEPAGE ? __GFP_DIRECT_RECLAIM
 *                                                      : __GFP_KSWAPD_RECLAIM)
 *   madvise       GFP_TRANSHUGE_LIGHT | (MADV_HUGEPAGE ? __GFP_DIRECT_RECLAIM : 0)
 *   never         GFP_TRANSHUGE_LIGHT
 *
 * Simplifications: no per-size (mTHP) controls, no khugepaged, no
 * memcg charge (thp_fault_fallback_charge stays 0).
 */
#include "mm/internal.h"
#include "mm/memory.h"
#include "mm/mmzone.h"
#include "mm/sysctl.h"

gfp_t vma_thp_gfp_mask(const struct machine *m, const struct vm_area_struct *vma)
{
	bool madvised = vma->vm_flags & VM_HUGEPAGE;

	switch (m->t.thp_defrag) {
	case THP_DEFRAG_ALWAYS:
		return GFP_TRANSHUGE | (madvised ? 0 : __GFP_NORETRY);
	case THP_DEFRAG_DEFER:
		return GFP_TRANSHUGE_LIGHT | __GFP_KSWAPD_RECLAIM;
	case THP_DEFRAG_DEFER_MADVISE:
		return GFP_TRANSHUGE_LIGHT | (madvised ? __GFP_DIRECT_RECLAIM : __GFP_KSWAPD_RECLAIM);
	case THP_DEFRAG_MADVISE:
		return GFP_TRANSHUGE_LIGHT | (madvised ? __GFP_DIRECT_RECLAIM : 0);
	default:
		return GFP_TRANSHUGE_LIGHT;
	}
}

bool thp_vma_allowable(const struct machine *m, const struct vm_area_struct *vma, unsigned long addr)
{
	unsigned long haddr = addr & ~(PMD_SIZE - 1);

	if (vma->vm_flags & VM_NOHUGEPAGE)
		return false;
	switch (m->t.thp_enabled) {
	case THP_ALWAYS:
		break;
	case THP_MADVISE:
		if (!(vma->vm_flags & VM_HUGEPAGE))
			return false;
		break;
	default:
		return false;
	}
	return haddr >= vma->vm_start && haddr + PMD_SIZE <= vma->vm_end;
}
