/* power.c - NVML through dlopen (see power.h). Only four entry points of
 * the NVML API are used (docs.nvidia.com/deploy/nvml-api: nvmlInit_v2,
 * nvmlDeviceGetHandleByPciBusId_v2, nvmlDeviceGetPowerUsage in milliwatts,
 * nvmlShutdown); their C signatures are restated here so that no NVML
 * header is needed to build. */
#define _POSIX_C_SOURCE 200809L
#include "power.h"

#include <dlfcn.h>
#include <stdlib.h>

typedef int (*init_fn)(void);
typedef int (*handle_fn)(const char *, void **);
typedef int (*usage_fn)(void *, unsigned int *);

struct gc_power {
    void *lib, *dev;
    usage_fn usage;
    init_fn shutdown;
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
    gc_power_t *p = NULL;
    void *dev = NULL;
    if (init.p && down.p && get.p && use.p && init.f() == 0) {
        if (get.f(pci_bus_id, &dev) == 0 && (p = calloc(1, sizeof(*p))) != NULL) {
            p->lib = h, p->dev = dev, p->usage = use.f, p->shutdown = down.f;
            return p;
        }
        down.f();
    }
    dlclose(h);
    return NULL;
}

int gc_power_read_w(gc_power_t *p, double *w)
{
    unsigned int mw = 0;
    if (!p || p->usage(p->dev, &mw) != 0)
        return -1;
    *w = mw / 1000.0;
    return 0;
}

void gc_power_close(gc_power_t *p)
{
    if (!p)
        return;
    p->shutdown();
    dlclose(p->lib);
    free(p);
}
