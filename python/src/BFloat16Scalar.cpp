// The Python scalar type bfloat16 (a numpy generic, as ml_dtypes' is): construction from numbers
// and strings, arithmetic and comparisons through float (the result rounded back to bfloat16),
// float()/int()/repr()/hash().
#include "BFloat16.hpp"

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL npusim_bf16_array_api
#define PY_UFUNC_UNIQUE_SYMBOL npusim_bf16_ufunc_api
#define NO_IMPORT_ARRAY
#define NO_IMPORT_UFUNC
#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>

#include <cmath>

namespace npusim::python::bf16 {

namespace {

struct Scalar {
    PyObject_HEAD std::uint16_t bits;
};

PyTypeObject g_type = {PyVarObject_HEAD_INIT(nullptr, 0)};
PyNumberMethods g_number{};

// Both operands as floats for a binary operation; false (NotImplemented) if either is not a number
// a bfloat16 combines with (an array defers to numpy's ufuncs through its reflected operator).
bool operands(PyObject* a, PyObject* b, float* x, float* y) {
    auto one = [](PyObject* o, float* f) {
        if (is_scalar(o)) {
            *f = to_float(scalar_bits(o));
            return true;
        }
        if (PyFloat_Check(o) || PyLong_Check(o) || PyBool_Check(o)) {
            const double d = PyFloat_AsDouble(o);
            if (d == -1.0 && PyErr_Occurred()) {
                PyErr_Clear();
                return false;
            }
            *f = static_cast<float>(d);
            return true;
        }
        return false;
    };
    return one(a, x) && one(b, y);
}

template <typename Op> PyObject* binary(PyObject* a, PyObject* b, Op op) {
    float x, y;
    if (!operands(a, b, &x, &y)) Py_RETURN_NOTIMPLEMENTED;
    return make_scalar(from_float(op(x, y)));
}

PyObject* nb_add(PyObject* a, PyObject* b) { return binary(a, b, [](float x, float y) { return x + y; }); }
PyObject* nb_sub(PyObject* a, PyObject* b) { return binary(a, b, [](float x, float y) { return x - y; }); }
PyObject* nb_mul(PyObject* a, PyObject* b) { return binary(a, b, [](float x, float y) { return x * y; }); }
PyObject* nb_div(PyObject* a, PyObject* b) { return binary(a, b, [](float x, float y) { return x / y; }); }
PyObject* nb_neg(PyObject* a) { return make_scalar(scalar_bits(a) ^ 0x8000); }
PyObject* nb_pos(PyObject* a) { return make_scalar(scalar_bits(a)); }
PyObject* nb_abs(PyObject* a) { return make_scalar(scalar_bits(a) & 0x7fff); }
int nb_bool(PyObject* a) { return to_float(scalar_bits(a)) != 0.0f; }
PyObject* nb_float(PyObject* a) { return PyFloat_FromDouble(to_float(scalar_bits(a))); }
PyObject* nb_int(PyObject* a) {
    const float f = to_float(scalar_bits(a));
    if (std::isnan(f)) {
        PyErr_SetString(PyExc_ValueError, "cannot convert bfloat16 NaN to integer");
        return nullptr;
    }
    if (std::isinf(f)) {
        PyErr_SetString(PyExc_OverflowError, "cannot convert bfloat16 infinity to integer");
        return nullptr;
    }
    return PyLong_FromDouble(f);
}

PyObject* tp_new(PyTypeObject*, PyObject* args, PyObject* kwds) {
    PyObject* arg = nullptr;
    if (kwds && PyDict_Size(kwds) != 0) {
        PyErr_SetString(PyExc_TypeError, "bfloat16() takes no keyword arguments");
        return nullptr;
    }
    if (!PyArg_ParseTuple(args, "|O:bfloat16", &arg)) return nullptr;
    if (!arg) return make_scalar(0);
    if (PyArray_Check(arg)) { // bfloat16(array): the array converted, as numpy's scalar types do
        PyArray_Descr* d = PyArray_DescrFromType(dtype_num());
        return PyArray_CastToType(reinterpret_cast<PyArrayObject*>(arg), d, 0);
    }
    std::uint16_t bits;
    if (PyUnicode_Check(arg) || PyBytes_Check(arg)) {
        PyObject* f = PyFloat_FromString(arg);
        if (!f) return nullptr;
        const bool ok = bits_from_object(f, &bits);
        Py_DECREF(f);
        return ok ? make_scalar(bits) : nullptr;
    }
    return bits_from_object(arg, &bits) ? make_scalar(bits) : nullptr;
}

PyObject* tp_richcompare(PyObject* a, PyObject* b, int op) {
    float x, y;
    if (!operands(a, b, &x, &y)) Py_RETURN_NOTIMPLEMENTED;
    bool r = false;
    switch (op) {
    case Py_LT: r = x < y; break;
    case Py_LE: r = x <= y; break;
    case Py_EQ: r = x == y; break;
    case Py_NE: r = x != y; break;
    case Py_GT: r = x > y; break;
    case Py_GE: r = x >= y; break;
    }
    return PyBool_FromLong(r);
}

// repr/str: the shortest decimal that reads back as the same float32 value
PyObject* tp_repr(PyObject* a) {
    PyObject* f = PyFloat_FromDouble(to_float(scalar_bits(a)));
    if (!f) return nullptr;
    PyObject* r = PyObject_Repr(f);
    Py_DECREF(f);
    return r;
}

Py_hash_t tp_hash(PyObject* a) {
    PyObject* f = PyFloat_FromDouble(to_float(scalar_bits(a)));
    if (!f) return -1;
    const Py_hash_t h = PyObject_Hash(f);
    Py_DECREF(f);
    return h;
}

} // namespace

PyTypeObject* scalar_type() { return &g_type; }
bool is_scalar(PyObject* o) { return PyObject_TypeCheck(o, &g_type); }
std::uint16_t scalar_bits(PyObject* o) { return reinterpret_cast<Scalar*>(o)->bits; }

PyObject* make_scalar(std::uint16_t bits) {
    PyObject* o = g_type.tp_alloc(&g_type, 0);
    if (o) reinterpret_cast<Scalar*>(o)->bits = bits;
    return o;
}

bool bits_from_object(PyObject* o, std::uint16_t* out) {
    if (is_scalar(o)) {
        *out = scalar_bits(o);
        return true;
    }
    if (PyArray_IsScalar(o, Float)) { // float32 rounds once, not through double
        *out = from_float(PyArrayScalar_VAL(o, Float));
        return true;
    }
    // ints go through their exact double value first; huge ones round to infinity
    const double d = PyFloat_AsDouble(o);
    if (d == -1.0 && PyErr_Occurred()) {
        if (PyLong_Check(o) && PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            *out = Py_SIZE(o) < 0 ? 0xff80 : 0x7f80;
            return true;
        }
        return false;
    }
    *out = from_double(d);
    return true;
}

void init_scalar_type() {
    g_number.nb_add = nb_add;
    g_number.nb_subtract = nb_sub;
    g_number.nb_multiply = nb_mul;
    g_number.nb_true_divide = nb_div;
    g_number.nb_negative = nb_neg;
    g_number.nb_positive = nb_pos;
    g_number.nb_absolute = nb_abs;
    g_number.nb_bool = nb_bool;
    g_number.nb_float = nb_float;
    g_number.nb_int = nb_int;
    g_type.tp_name = "npusim.bfloat16";
    g_type.tp_basicsize = sizeof(Scalar);
    g_type.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE;
    g_type.tp_doc = "bfloat16: the upper 16 bits of an IEEE float32 (npusim's, when ml_dtypes is not installed)";
    g_type.tp_base = &PyGenericArrType_Type;
    g_type.tp_new = tp_new;
    g_type.tp_repr = tp_repr;
    g_type.tp_str = tp_repr;
    g_type.tp_hash = tp_hash;
    g_type.tp_richcompare = tp_richcompare;
    g_type.tp_as_number = &g_number;
    if (PyType_Ready(&g_type) < 0) throw py::error_already_set();
}

} // namespace npusim::python::bf16
