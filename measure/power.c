/* power.c - NVML through dlopen (see power.h). Only eight entry points of
 * the NVML API are used (docs.nvidia.com/deploy/nvml-api: nvmlInit_v2,
 * nvmlDeviceGetHandleByPciBusId_v2, nvmlDeviceGetFieldValues for
 * NVML_FI_DEV_POWER_INSTANT (186, milliwatts), nvmlDeviceGetPowerUsage in
 * milliwatts, nvmlDeviceGetEnforcedPowerLimit in milliwatts,
 * nvmlDeviceGetClockInfo (NVML_CLOCK_SM = 1, MHz), nvmlDeviceGetTemperature
 * (NVML_TEMPERATURE_GPU = 0, C), nvmlShutdown); their C signatures and nvmlFieldValue_t are
 * restated here so that no NVML header is needed to build. The NVML
 * reference: on Ampere (but GA100) and newer, nvmlDeviceGetPowerUsage
 * returns the power averaged over one second; the field gives it now. */
#define _POSIX_C_SOURCE 200809L
#include "power.h"

#include <dlfcn.h>
#include <stdlib.h>

typedef int (*init_fn)(void);
typedef int (*handle_fn)(const char *, void **);
typedef int (*usage_fn)(void *, unsigned int *);
typedef int (*clock_fn)(void *, int, unsigned int *);

/* nvmlFieldValue_t: field id, scope id, timestamp (us), latency (us),
 * value type (0 double, 1 unsigned int, 2 unsigned long, 3 unsigned long
 * long, 4 signed long long, 5 signed int), return code, value */
typedef struct field_value {
    unsigned int field, scope;
    long long timestamp_us, latency_us;
    int type, ret;
    union {
        double d;
        unsigned int ui;
        unsigned long ul;
        unsigned long long ull;
        long long sll;
        int si;
    } v;
} field_value_t;
typedef int (*fields_fn)(void *, int, field_value_t *);
enum { FI_POWER_INSTANT = 186 };

struct gc_power {
    void *lib, *dev;
    usage_fn usage;
    fields_fn fields; /* NULL: a driver without nvmlDeviceGetFieldValues */
    usage_fn limit;   /* NULL: a driver without nvmlDeviceGetEnforcedPowerLimit */
    clock_fn clock;   /* NULL: a driver without nvmlDeviceGetClockInfo */
    clock_fn temp;    /* NULL: a driver without nvmlDeviceGetTemperature */
    init_fn shutdown;
    int instant; /* the last reading was the instantaneous field */
};

gc_power_t *gc_power_open(const char *pci_bus_id, const char *lib)
{
    void *h = dlopen(lib ? lib : "libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h || !pci_bus_id)
        return h ? (dlclose(h), NULL) : NULL;
    /* each symbol through a union: ISO C has no object-to-function cast */
    union { void *p; init_fn f; } init = {dlsym(h, "nvmlInit_v2")}, down = {dlsym(h, "nvmlShutdown")};
    union { void *p; handle_fn f; } get = {dlsym(h, "nvmlDeviceGetHandleByPciBusId_v2")};
    union { void *p; usage_fn f; } use = {dlsym(h, "nvmlDeviceGetPowerUsage")};
    union { void *p; fields_fn f; } fld = {dlsym(h, "nvmlDeviceGetFieldValues")};
    union { void *p; usage_fn f; } lim = {dlsym(h, "nvmlDeviceGetEnforcedPowerLimit")};
    union { void *p; clock_fn f; } clk = {dlsym(h, "nvmlDeviceGetClockInfo")};
    union { void *p; clock_fn f; } tmp = {dlsym(h, "nvmlDeviceGetTemperature")};
    gc_power_t *p = NULL;
    void *dev = NULL;
    if (init.p && down.p && get.p && use.p && init.f() == 0) {
        if (get.f(pci_bus_id, &dev) == 0 && (p = calloc(1, sizeof(*p))) != NULL) {
            p->lib = h, p->dev = dev, p->usage = use.f, p->shutdown = down.f;
            p->fields = fld.p ? fld.f : NULL;
            p->limit = lim.p ? lim.f : NULL;
            p->clock = clk.p ? clk.f : NULL;
            p->temp = tmp.p ? tmp.f : NULL;
            return p;
        }
        down.f();
    }
    dlclose(h);
    return NULL;
}

/* The instantaneous power field in milliwatts into *mw: 0, or -1. */
static int read_instant(gc_power_t *p, double *mw)
{
    field_value_t f = {FI_POWER_INSTANT, 0, 0, 0, 0, 0, {0}};
    if (!p->fields || p->fields(p->dev, 1, &f) != 0 || f.ret != 0)
        return -1;
    if (f.type == 0)
        *mw = f.v.d;
    else if (f.type == 1)
        *mw = f.v.ui;
    else if (f.type == 2)
        *mw = (double)f.v.ul;
    else if (f.type == 3)
        *mw = (double)f.v.ull;
    else if (f.type == 4)
        *mw = (double)f.v.sll;
    else if (f.type == 5)
        *mw = f.v.si;
    else
        return -1;
    return *mw > 0 ? 0 : -1;
}

int gc_power_read_w(gc_power_t *p, double *w)
{
    if (!p)
        return -1;
    double mw;
    if (read_instant(p, &mw) == 0) {
        p->instant = 1;
        *w = mw / 1000.0;
        return 0;
    }
    unsigned int u = 0;
    if (p->usage(p->dev, &u) != 0)
        return -1;
    p->instant = 0;
    *w = u / 1000.0;
    return 0;
}

int gc_power_limit_w(gc_power_t *p, double *w)
{
    unsigned int mw = 0;
    if (!p || !p->limit || p->limit(p->dev, &mw) != 0 || mw == 0)
        return -1;
    *w = mw / 1000.0;
    return 0;
}

int gc_power_clock_mhz(gc_power_t *p, double *mhz)
{
    unsigned int v = 0;
    if (!p || !p->clock || p->clock(p->dev, 1, &v) != 0 || v == 0)
        return -1;
    *mhz = v;
    return 0;
}

int gc_power_temp_c(gc_power_t *p, double *c)
{
    unsigned int v = 0;
    if (!p || !p->temp || p->temp(p->dev, 0, &v) != 0)
        return -1;
    *c = v;
    return 0;
}

int gc_power_instant(const gc_power_t *p)
{
    return p && p->instant;
}

void gc_power_close(gc_power_t *p)
{
    if (!p)
        return;
    p->shutdown();
    dlclose(p->lib);
    free(p);
}
