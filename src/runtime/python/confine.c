/*
 * _codemode_confine: the Python worker's confinement primitive, a CPython extension module
 * of the stable ABI (abi3, CPython >= 3.10) built by the crate's build.rs WITHOUT Python.h
 * (no python3-dev at build time: the few stable-ABI types and functions it needs are declared
 * below) and loaded by the worker's launcher from a memfd the host hands it.
 *
 * It makes a fixed set of system calls with inputs the host prepared (the Landlock ruleset
 * attribute, the compiled seccomp filter, the limits): setrlimit, PR_SET_NO_NEW_PRIVS,
 * PR_SET_PDEATHSIG, capset (drop all), landlock_create_ruleset + landlock_restrict_self, and
 * seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC). It exposes no general
 * foreign-function interface (no pointer, address, system call number or library name is
 * ever taken from the caller), so a program that reaches this module after confinement can
 * only repeat those calls, which the seccomp filter then denies; once a filter is installed
 * every function refuses at once (EPERM) anyway.
 *
 * Every function returns an int: 0 on success, else the errno of the call that failed
 * (seccomp's thread synchronisation failure: minus the thread id that could not be
 * synchronised).
 */

#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* ---- The stable ABI's declarations (Include/object.h, moduleobject.h, methodobject.h) ---- */

typedef ssize_t Py_ssize_t;

/* PyObject_HEAD of a non-debug build (3.12+ makes ob_refcnt a union of the same size). */
typedef struct PyObject {
    Py_ssize_t ob_refcnt;
    void *ob_type;
} PyObject;

typedef PyObject *(*PyCFunction)(PyObject *, PyObject *);

typedef struct PyMethodDef {
    const char *ml_name;
    PyCFunction ml_meth;
    int ml_flags;
    const char *ml_doc;
} PyMethodDef;

typedef struct PyModuleDef_Base {
    PyObject ob_base;
    PyObject *(*m_init)(void);
    Py_ssize_t m_index;
    PyObject *m_copy;
} PyModuleDef_Base;

typedef struct PyModuleDef {
    PyModuleDef_Base m_base;
    const char *m_name;
    const char *m_doc;
    Py_ssize_t m_size;
    PyMethodDef *m_methods;
    void *m_slots;
    void *m_traverse;
    void *m_clear;
    void *m_free;
} PyModuleDef;

#define METH_VARARGS 0x0001
#define METH_NOARGS 0x0004
#define METH_O 0x0008
/* PYTHON_ABI_VERSION: what PyModule_Create passes under the limited API. */
#define PYTHON_ABI_VERSION 3

extern PyObject *PyModule_Create2(PyModuleDef *, int);
extern int PyBytes_AsStringAndSize(PyObject *, char **, Py_ssize_t *);
extern PyObject *PyLong_FromLong(long);
extern int PyArg_ParseTuple(PyObject *, const char *, ...);

/* ---- The calls ---- */

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif

/* The largest Landlock ruleset attribute accepted (the kernel refuses more than a page). */
#define MAX_ATTR 4096

/* Set once a seccomp filter is installed: nothing more is attempted. */
static int spent = 0;

static PyObject *result(int code) { return PyLong_FromLong(code); }

/* setrlimit(resource, value): soft and hard limit both `value`. */
static PyObject *cm_setrlimit(PyObject *self, PyObject *args) {
    int resource = 0;
    unsigned long long value = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "iK", &resource, &value)) {
        return NULL;
    }
    if (spent) {
        return result(EPERM);
    }
    struct rlimit limit = {(rlim_t)value, (rlim_t)value};
    return result(setrlimit(resource, &limit) == 0 ? 0 : errno);
}

/* pdeathsig(): SIGKILL when the parent (thread) dies. */
static PyObject *cm_pdeathsig(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    if (spent) {
        return result(EPERM);
    }
    return result(prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == 0 ? 0 : errno);
}

/* landlock(attr): a ruleset handling what `attr` (struct landlock_ruleset_attr, as the host
 * laid it out for this kernel's ABI) says, with no rule, enforced on this thread after
 * PR_SET_NO_NEW_PRIVS (what the `landlock` crate's Ruleset::create().restrict_self() does). */
static PyObject *cm_landlock(PyObject *self, PyObject *arg) {
    char *attr = NULL;
    Py_ssize_t size = 0;
    (void)self;
    if (PyBytes_AsStringAndSize(arg, &attr, &size) < 0) {
        return NULL;
    }
    if (spent) {
        return result(EPERM);
    }
    if (size <= 0 || size > MAX_ATTR) {
        return result(EINVAL);
    }
    long fd = syscall(SYS_landlock_create_ruleset, attr, (size_t)size, 0);
    if (fd < 0) {
        return result(errno);
    }
    int code = 0;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        code = errno;
    } else if (syscall(SYS_landlock_restrict_self, (int)fd, 0) != 0) {
        code = errno;
    }
    close((int)fd);
    return result(code);
}

/* drop_capabilities(): every capability set emptied (a root worker keeps none). */
static PyObject *cm_drop_capabilities(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    if (spent) {
        return result(EPERM);
    }
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    memset(data, 0, sizeof data);
    return result(syscall(SYS_capset, &header, data) == 0 ? 0 : errno);
}

/* seccomp(program): the compiled filter (struct sock_filter[], as the host compiled it with
 * seccompiler) installed on every thread after PR_SET_NO_NEW_PRIVS (what seccompiler's
 * apply_filter_all_threads does). */
static PyObject *cm_seccomp(PyObject *self, PyObject *arg) {
    char *program = NULL;
    Py_ssize_t size = 0;
    (void)self;
    if (PyBytes_AsStringAndSize(arg, &program, &size) < 0) {
        return NULL;
    }
    if (spent) {
        return result(EPERM);
    }
    if (size <= 0 || size % (Py_ssize_t)sizeof(struct sock_filter) != 0 ||
        size / (Py_ssize_t)sizeof(struct sock_filter) > BPF_MAXINSNS) {
        return result(EINVAL);
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        return result(errno);
    }
    struct sock_fprog fprog = {
        (unsigned short)(size / (Py_ssize_t)sizeof(struct sock_filter)),
        (struct sock_filter *)program,
    };
    long done = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &fprog);
    if (done < 0) {
        return result(errno);
    }
    if (done > 0) {
        return result(-(int)done);
    }
    spent = 1;
    return result(0);
}

static PyMethodDef methods[] = {
    {"setrlimit", (PyCFunction)cm_setrlimit, METH_VARARGS, "setrlimit(resource, value) -> errno"},
    {"pdeathsig", (PyCFunction)cm_pdeathsig, METH_NOARGS, "pdeathsig() -> errno"},
    {"landlock", (PyCFunction)cm_landlock, METH_O, "landlock(attr: bytes) -> errno"},
    {"drop_capabilities", (PyCFunction)cm_drop_capabilities, METH_NOARGS,
     "drop_capabilities() -> errno"},
    {"seccomp", (PyCFunction)cm_seccomp, METH_O, "seccomp(program: bytes) -> errno"},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef module = {
    {{1, NULL}, NULL, 0, NULL},
    "_codemode_confine",
    "The codemode Python worker's confinement primitive.",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

__attribute__((visibility("default"))) PyObject *PyInit__codemode_confine(void) {
    return PyModule_Create2(&module, PYTHON_ABI_VERSION);
}
