//! The web build's memory allocator: power-of-two size classes, each with its own free list, on
//! top of a bump pointer that grows the wasm memory (a few hundred bytes of code, against the
//! 7.5 KB of the standard dlmalloc; see docs/performance.md, "Download size").
//!
//! Every block is 2^k bytes (k ≥ 4) and returns to its class's list when freed; lists never merge,
//! so the heap holds at most the peak use of each class, and a block wastes under half of itself.
//! Both operations are O(1). Blocks are 16-byte aligned; a larger alignment is served from the
//! bump pointer, aligned as asked. The page is single-threaded, which is why a `Cell` suffices.

use core::alloc::{GlobalAlloc, Layout};
use core::arch::wasm32::{memory_grow, memory_size};
use core::cell::Cell;
use core::ptr::null_mut;

const PAGE: usize = 65_536;
const MIN_SHIFT: u32 = 4;
const CLASSES: usize = 28; // 16 B … 2 GiB

pub struct Heap {
    /// Head of each class's free list (0: empty); a free block's first word links the next.
    free: [Cell<usize>; CLASSES],
    /// Next unused byte, and the end of the memory grown so far.
    next: Cell<usize>,
    end: Cell<usize>,
}

// SAFETY: the browser's main thread is the only thread this wasm module ever runs on.
unsafe impl Sync for Heap {}

impl Heap {
    pub const fn new() -> Self {
        Heap {
            free: [const { Cell::new(0) }; CLASSES],
            next: Cell::new(0),
            end: Cell::new(0),
        }
    }
}

/// The class of a layout: the k − 4 with 2^k the smallest power of two ≥ its size and alignment.
fn class(layout: &Layout) -> usize {
    let size = layout.size().max(layout.align()).max(1 << MIN_SHIFT);
    (usize::BITS - (size - 1).leading_zeros() - MIN_SHIFT) as usize
}

impl Heap {
    /// `size` fresh bytes at an `align`-aligned address from the bump pointer, growing memory.
    fn bump(&self, size: usize, align: usize) -> *mut u8 {
        if self.end.get() == 0 {
            let top = memory_size(0) * PAGE;
            self.next.set(top);
            self.end.set(top);
        }
        let start = (self.next.get() + align - 1) & !(align - 1);
        let Some(stop) = start.checked_add(size) else {
            return null_mut();
        };
        if stop > self.end.get() {
            // Grow; the new pages follow ours unless something else (the standard library's own
            // allocator, which it keeps for a few internal uses) grew the memory meanwhile, in
            // which case the bump starts afresh at the new pages.
            let pages = (size + align).div_ceil(PAGE);
            let old = memory_grow(0, pages);
            if old == usize::MAX {
                return null_mut();
            }
            if old * PAGE != self.end.get() {
                self.next.set(old * PAGE);
            }
            self.end.set((old + pages) * PAGE);
            return self.bump(size, align);
        }
        self.next.set(stop);
        start as *mut u8
    }
}

unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let k = class(&layout);
        if k >= CLASSES {
            return null_mut();
        }
        let head = &self.free[k];
        let block = head.get();
        if block != 0 && layout.align() <= 16 {
            // SAFETY: a free block of this class, at least 16 bytes, whose first word links on.
            head.set(unsafe { *(block as *const usize) });
            return block as *mut u8;
        }
        self.bump(1 << (k as u32 + MIN_SHIFT), layout.align().max(16))
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let head = &self.free[class(&layout)];
        // SAFETY: the block is ours, of this class, and no longer used by its owner.
        unsafe { *(ptr as *mut usize) = head.get() };
        head.set(ptr as usize);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees a valid layout for the new size.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        if class(&new) == class(&layout) {
            return ptr;
        }
        // SAFETY: as GlobalAlloc's default: fresh block, copy the common prefix, free the old.
        unsafe {
            let fresh = self.alloc(new);
            if !fresh.is_null() {
                core::ptr::copy_nonoverlapping(ptr, fresh, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            fresh
        }
    }
}
