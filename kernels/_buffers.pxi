# Part of kernels/_partition.pyx, which includes it: the parts compile into one extension.

# --- inputs: int64 buffers without memoryview objects ------------------------------
#
# The kernels are called per hand, so the fixed cost of a call matters: the arrays are read
# through the buffer protocol (no numpy call when they already are C-contiguous int64).

cdef inline bint _int64_format(const char* fmt) noexcept:
    if fmt == NULL:
        return False
    if fmt[0] == b'@' or fmt[0] == b'=' or fmt[0] == b'<':
        fmt += 1
    return (fmt[0] == b'l' or fmt[0] == b'q') and fmt[1] == 0


cdef int _try_int64(object obj, Py_buffer* view, int ndim) except -1:
    """Fill view from obj when obj is C-contiguous int64 with ndim dimensions (1), else 0."""
    try:
        PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
    except (TypeError, ValueError, BufferError):
        return 0
    if view.ndim == ndim and view.itemsize == 8 and _int64_format(view.format):
        return 1
    PyBuffer_Release(view)
    return 0


cdef int _get_int64(object obj, Py_buffer* view, int ndim, str name) except -1:
    """Fill view with obj as C-contiguous int64 (converting when needed); release it after."""
    if _try_int64(obj, view, ndim):
        return 0
    if _try_int64(np.ascontiguousarray(obj, dtype=np.int64), view, ndim):
        return 0
    raise ValueError(f"{name} must be a {ndim}-dimensional array of integers")


cdef class _Held:
    """The int64 buffers one call reads (released when the call drops this object)."""
    cdef Py_buffer views[8]
    cdef int count

    cdef const int64_t* take(self, object obj, int ndim, str name) except NULL:
        """obj's data as C-contiguous int64 of ndim dimensions (see _get_int64)."""
        if self.count == 8:
            raise RuntimeError("_Held holds at most 8 buffers")
        _get_int64(obj, &self.views[self.count], ndim, name)
        self.count += 1
        return <const int64_t*>self.views[self.count - 1].buf

    cdef Py_ssize_t extent(self, int index, int axis):
        """The shape along ``axis`` of the buffer taken ``index``-th."""
        return self.views[index].shape[axis]

    def __dealloc__(self):
        cdef int i
        for i in range(self.count):
            PyBuffer_Release(&self.views[i])


cdef object _int64_array(const int64_t* data, int64_t n):
    """A new int64 numpy array of the n values at data."""
    out = np.empty(n, dtype=np.int64)
    cdef Py_buffer view
    if n:
        PyObject_GetBuffer(out, &view, PyBUF_C_CONTIGUOUS)
        memcpy(view.buf, data, n * sizeof(int64_t))
        PyBuffer_Release(&view)
    return out


