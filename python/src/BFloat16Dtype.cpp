// The numpy dtype of bfloat16 (a legacy user dtype, as ml_dtypes registers its own): item access,
// copies, sorting support, casts to and from numpy's numeric types (bfloat16 -> float32/float64
// and bool/int8/uint8 -> bfloat16 are safe, as in ml_dtypes) and ufunc loops for arithmetic,
// comparisons and the float predicates. Ufuncs without a bfloat16 loop (exp, sqrt, ...) compute
// in float32 through the safe cast and return float32.
#include "BFloat16.hpp"

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL npusim_bf16_array_api
#define PY_UFUNC_UNIQUE_SYMBOL npusim_bf16_ufunc_api
#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>

#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

namespace npusim::python::bf16 {

namespace {

int g_num = -1;
PyArray_ArrFuncs g_funcs;
#if NPY_ABI_VERSION >= 0x02000000
PyArray_DescrProto g_descr = {PyObject_HEAD_INIT(nullptr)};
#else
PyArray_Descr g_descr = {PyObject_HEAD_INIT(nullptr)};
#endif

std::uint16_t load(const void* p) {
    std::uint16_t b;
    std::memcpy(&b, p, 2);
    return b;
}
void store(void* p, std::uint16_t b) { std::memcpy(p, &b, 2); }
std::uint16_t swap(std::uint16_t b) { return static_cast<std::uint16_t>((b << 8) | (b >> 8)); }

PyObject* getitem(void* data, void*) { return make_scalar(load(data)); }

int setitem(PyObject* item, void* data, void*) {
    std::uint16_t b;
    if (!bits_from_object(item, &b)) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "expected a number to store in a bfloat16 array, got %s",
                         Py_TYPE(item)->tp_name);
        }
        return -1;
    }
    store(data, b);
    return 0;
}

void copyswapn(void* dst, npy_intp dstride, void* src, npy_intp sstride, npy_intp n, int do_swap, void*) {
    if (!src) return;
    auto* d = static_cast<char*>(dst);
    const auto* s = static_cast<const char*>(src);
    for (npy_intp i = 0; i < n; ++i) {
        const std::uint16_t b = load(s + i * sstride);
        store(d + i * dstride, do_swap ? swap(b) : b);
    }
}

void copyswap(void* dst, void* src, int do_swap, void* arr) { copyswapn(dst, 0, src, 0, 1, do_swap, arr); }

npy_bool nonzero(void* data, void*) { return to_float(load(data)) != 0.0f; }

// sort order: NaN after everything, as numpy's float sorts put it
int compare(const void* a, const void* b, void*) {
    const float x = to_float(load(a)), y = to_float(load(b));
    if (std::isnan(x)) return std::isnan(y) ? 0 : 1;
    if (std::isnan(y)) return -1;
    return x < y ? -1 : (x > y ? 1 : 0);
}

template <bool Max> int arg_extreme(void* data, npy_intp n, npy_intp* out, void*) {
    const auto* p = static_cast<const char*>(data);
    *out = 0;
    float best = to_float(load(p));
    for (npy_intp i = 1; i < n && !std::isnan(best); ++i) { // the first NaN wins, as for numpy floats
        const float v = to_float(load(p + 2 * i));
        if (std::isnan(v) || (Max ? v > best : v < best)) best = v, *out = i;
    }
    return 0;
}

// arange's fill: the progression the first two elements start
int fill(void* buffer, npy_intp length, void*) {
    auto* p = static_cast<char*>(buffer);
    const float start = to_float(load(p)), delta = to_float(load(p + 2)) - start;
    for (npy_intp i = 2; i < length; ++i) store(p + 2 * i, from_float(start + static_cast<float>(i) * delta));
    return 0;
}

void dot(void* a, npy_intp sa, void* b, npy_intp sb, void* out, npy_intp n, void*) {
    float acc = 0.0f;
    for (npy_intp i = 0; i < n; ++i)
        acc += to_float(load(static_cast<char*>(a) + i * sa)) * to_float(load(static_cast<char*>(b) + i * sb));
    store(out, from_float(acc));
}

// ---- casts ----
template <typename From> void cast_to_bf16(void* from, void* to, npy_intp n, void*, void*) {
    const auto* f = static_cast<const From*>(from);
    auto* t = static_cast<char*>(to);
    for (npy_intp i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<From, float>) store(t + 2 * i, from_float(f[i]));
        else store(t + 2 * i, from_double(static_cast<double>(f[i])));
    }
}

template <typename To> void cast_from_bf16(void* from, void* to, npy_intp n, void*, void*) {
    const auto* f = static_cast<const char*>(from);
    auto* t = static_cast<To*>(to);
    for (npy_intp i = 0; i < n; ++i) {
        const float v = to_float(load(f + 2 * i));
        if constexpr (std::is_integral_v<To>)
            t[i] = std::isfinite(v) ? static_cast<To>(v) : To{}; // out of range: as numpy's float casts, unspecified
        else
            t[i] = static_cast<To>(v);
    }
}

template <typename T> void register_casts(int npy, bool safe_to_bf16, bool safe_from_bf16) {
    PyArray_Descr* other = PyArray_DescrFromType(npy);
    PyArray_Descr* self = PyArray_DescrFromType(g_num);
    if (PyArray_RegisterCastFunc(other, g_num, cast_to_bf16<T>) < 0 ||
        PyArray_RegisterCastFunc(self, npy, cast_from_bf16<T>) < 0)
        throw py::error_already_set();
    if (safe_to_bf16 && PyArray_RegisterCanCast(other, g_num, NPY_NOSCALAR) < 0) throw py::error_already_set();
    if (safe_from_bf16 && PyArray_RegisterCanCast(self, npy, NPY_NOSCALAR) < 0) throw py::error_already_set();
    Py_DECREF(other);
    Py_DECREF(self);
}

void bf16_to_bool(void* from, void* to, npy_intp n, void*, void*) {
    for (npy_intp i = 0; i < n; ++i)
        static_cast<npy_bool*>(to)[i] = to_float(load(static_cast<char*>(from) + 2 * i)) != 0.0f;
}

// ---- ufunc loops ----
template <typename Op> void loop_binary(char** args, const npy_intp* dims, const npy_intp* steps, void*) {
    for (npy_intp i = 0; i < dims[0]; ++i)
        store(args[2] + i * steps[2], from_float(Op{}(to_float(load(args[0] + i * steps[0])),
                                                     to_float(load(args[1] + i * steps[1])))));
}
template <typename Op> void loop_compare(char** args, const npy_intp* dims, const npy_intp* steps, void*) {
    for (npy_intp i = 0; i < dims[0]; ++i)
        *reinterpret_cast<npy_bool*>(args[2] + i * steps[2]) =
            Op{}(to_float(load(args[0] + i * steps[0])), to_float(load(args[1] + i * steps[1])));
}
template <typename Op> void loop_unary(char** args, const npy_intp* dims, const npy_intp* steps, void*) {
    for (npy_intp i = 0; i < dims[0]; ++i)
        store(args[1] + i * steps[1], Op{}(load(args[0] + i * steps[0])));
}
template <typename Op> void loop_predicate(char** args, const npy_intp* dims, const npy_intp* steps, void*) {
    for (npy_intp i = 0; i < dims[0]; ++i)
        *reinterpret_cast<npy_bool*>(args[1] + i * steps[1]) = Op{}(load(args[0] + i * steps[0]));
}

struct Add { float operator()(float a, float b) const { return a + b; } };
struct Sub { float operator()(float a, float b) const { return a - b; } };
struct Mul { float operator()(float a, float b) const { return a * b; } };
struct Div { float operator()(float a, float b) const { return a / b; } };
struct Max { float operator()(float a, float b) const { return (std::isnan(a) || a >= b) ? a : b; } };
struct Min { float operator()(float a, float b) const { return (std::isnan(a) || a <= b) ? a : b; } };
struct FMax { float operator()(float a, float b) const { return std::fmax(a, b); } };
struct FMin { float operator()(float a, float b) const { return std::fmin(a, b); } };
struct Eq { bool operator()(float a, float b) const { return a == b; } };
struct Ne { bool operator()(float a, float b) const { return a != b; } };
struct Lt { bool operator()(float a, float b) const { return a < b; } };
struct Le { bool operator()(float a, float b) const { return a <= b; } };
struct Gt { bool operator()(float a, float b) const { return a > b; } };
struct Ge { bool operator()(float a, float b) const { return a >= b; } };
struct Neg { std::uint16_t operator()(std::uint16_t b) const { return b ^ 0x8000; } };
struct Pos { std::uint16_t operator()(std::uint16_t b) const { return b; } };
struct Abs { std::uint16_t operator()(std::uint16_t b) const { return b & 0x7fff; } };
// the predicates read the bits: comparing a signalling NaN as a float would raise "invalid"
struct IsNan { bool operator()(std::uint16_t b) const { return (b & 0x7fff) > 0x7f80; } };
struct IsInf { bool operator()(std::uint16_t b) const { return (b & 0x7fff) == 0x7f80; } };
struct IsFinite { bool operator()(std::uint16_t b) const { return (b & 0x7f80) != 0x7f80; } };
struct SignBit { bool operator()(std::uint16_t b) const { return (b & 0x8000) != 0; } };

void add_loop(PyObject* numpy, const char* name, PyUFuncGenericFunction fn, std::initializer_list<int> types) {
    PyObject* uf = PyObject_GetAttrString(numpy, name);
    if (!uf) throw py::error_already_set();
    std::vector<int> t(types);
    const int rc = PyUFunc_RegisterLoopForType(reinterpret_cast<PyUFuncObject*>(uf), g_num, fn, t.data(), nullptr);
    Py_DECREF(uf);
    if (rc < 0) throw py::error_already_set();
}

void register_ufuncs() {
    PyObject* numpy = PyImport_ImportModule("numpy");
    if (!numpy) throw py::error_already_set();
    const int B = g_num, O = NPY_BOOL;
    add_loop(numpy, "add", loop_binary<Add>, {B, B, B});
    add_loop(numpy, "subtract", loop_binary<Sub>, {B, B, B});
    add_loop(numpy, "multiply", loop_binary<Mul>, {B, B, B});
    add_loop(numpy, "true_divide", loop_binary<Div>, {B, B, B});
    add_loop(numpy, "maximum", loop_binary<Max>, {B, B, B});
    add_loop(numpy, "minimum", loop_binary<Min>, {B, B, B});
    add_loop(numpy, "fmax", loop_binary<FMax>, {B, B, B});
    add_loop(numpy, "fmin", loop_binary<FMin>, {B, B, B});
    add_loop(numpy, "equal", loop_compare<Eq>, {B, B, O});
    add_loop(numpy, "not_equal", loop_compare<Ne>, {B, B, O});
    add_loop(numpy, "less", loop_compare<Lt>, {B, B, O});
    add_loop(numpy, "less_equal", loop_compare<Le>, {B, B, O});
    add_loop(numpy, "greater", loop_compare<Gt>, {B, B, O});
    add_loop(numpy, "greater_equal", loop_compare<Ge>, {B, B, O});
    add_loop(numpy, "negative", loop_unary<Neg>, {B, B});
    add_loop(numpy, "positive", loop_unary<Pos>, {B, B});
    add_loop(numpy, "absolute", loop_unary<Abs>, {B, B});
    add_loop(numpy, "isnan", loop_predicate<IsNan>, {B, O});
    add_loop(numpy, "isinf", loop_predicate<IsInf>, {B, O});
    add_loop(numpy, "isfinite", loop_predicate<IsFinite>, {B, O});
    add_loop(numpy, "signbit", loop_predicate<SignBit>, {B, O});
    Py_DECREF(numpy);
}

void register_dtype() {
    PyArray_InitArrFuncs(&g_funcs);
    g_funcs.getitem = getitem;
    g_funcs.setitem = setitem;
    g_funcs.copyswapn = copyswapn;
    g_funcs.copyswap = copyswap;
    g_funcs.nonzero = nonzero;
    g_funcs.compare = compare;
    g_funcs.argmax = arg_extreme<true>;
    g_funcs.argmin = arg_extreme<false>;
    g_funcs.fill = fill;
    g_funcs.dotfunc = dot;
    Py_SET_TYPE(&g_descr, &PyArrayDescr_Type);
    g_descr.typeobj = scalar_type();
    g_descr.kind = 'V'; // as ml_dtypes: numpy has no kind letter for a user float
    g_descr.type = 'E';
    g_descr.byteorder = '=';
    g_descr.flags = NPY_NEEDS_PYAPI | NPY_USE_GETITEM | NPY_USE_SETITEM;
    g_descr.elsize = 2;
    g_descr.alignment = 2;
    g_descr.f = &g_funcs;
    g_num = PyArray_RegisterDataType(&g_descr);
    if (g_num < 0) throw py::error_already_set();
    PyArray_Descr* d = PyArray_DescrFromType(g_num);
    if (PyDict_SetItemString(scalar_type()->tp_dict, "dtype", reinterpret_cast<PyObject*>(d)) < 0)
        throw py::error_already_set();
    Py_DECREF(d);
    PyType_Modified(scalar_type());
}

} // namespace

int dtype_num() { return g_num; }

} // namespace npusim::python::bf16

namespace npusim::python {

using namespace bf16;

void bind_bfloat16(py::module_& m) {
    if (_import_array() < 0 || _import_umath() < 0) throw py::error_already_set();
    init_scalar_type();
    register_dtype();
    register_casts<float>(NPY_FLOAT, false, true);
    register_casts<double>(NPY_DOUBLE, false, true);
    register_casts<npy_byte>(NPY_BYTE, true, false);
    register_casts<npy_ubyte>(NPY_UBYTE, true, false);
    register_casts<npy_short>(NPY_SHORT, false, false);
    register_casts<npy_ushort>(NPY_USHORT, false, false);
    register_casts<npy_int>(NPY_INT, false, false);
    register_casts<npy_uint>(NPY_UINT, false, false);
    register_casts<npy_long>(NPY_LONG, false, false);
    register_casts<npy_ulong>(NPY_ULONG, false, false);
    register_casts<npy_longlong>(NPY_LONGLONG, false, false);
    register_casts<npy_ulonglong>(NPY_ULONGLONG, false, false);
    { // bool: npy_bool is npy_ubyte's type, so its casts are registered by hand (nonzero is true)
        PyArray_Descr* b = PyArray_DescrFromType(NPY_BOOL);
        PyArray_Descr* self = PyArray_DescrFromType(g_num);
        if (PyArray_RegisterCastFunc(b, g_num, cast_to_bf16<npy_bool>) < 0 ||
            PyArray_RegisterCastFunc(self, NPY_BOOL, bf16_to_bool) < 0 || PyArray_RegisterCanCast(b, g_num, NPY_NOSCALAR) < 0)
            throw py::error_already_set();
        Py_DECREF(b);
        Py_DECREF(self);
    }
    register_ufuncs();
    m.attr("bfloat16") = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(scalar_type()));
}

} // namespace npusim::python
