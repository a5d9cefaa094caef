/* power.h - the board's power draw, read through NVML when the driver's
 * library (libnvidia-ml.so.1) is on the machine. gpucal-measure does not
 * link NVML: it is opened at run time, so a host without it still builds
 * and runs every bench (the power is then reported as not read). */
#ifndef GC_POWER_H
#define GC_POWER_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gc_power gc_power_t;

/* Opens NVML and finds the board whose PCI bus id is `pci_bus_id` (as
 * cudaDeviceGetPCIBusId writes it). NULL when NVML or the board is not
 * there; never fails otherwise. lib: the library to open (NULL: the
 * driver's libnvidia-ml.so.1). */
gc_power_t *gc_power_open(const char *pci_bus_id, const char *lib);

/* The board's power draw now, in watts, into *w: the instantaneous
 * reading where the driver gives it (NVML_FI_DEV_POWER_INSTANT), else
 * nvmlDeviceGetPowerUsage (on Ampere and newer but GA100 an average over
 * the last second). 0, or -1 when NVML gives neither. */
int gc_power_read_w(gc_power_t *p, double *w);

/* 1 when p's last reading was the instantaneous one, else 0 (p may be
 * NULL). */
int gc_power_instant(const gc_power_t *p);

/* The power limit the board enforces now (nvmlDeviceGetEnforcedPowerLimit,
 * milliwatts), in watts, into *w: 0, or -1 when NVML does not give it. */
int gc_power_limit_w(gc_power_t *p, double *w);

/* The SM clock NVML reports now (nvmlDeviceGetClockInfo, NVML_CLOCK_SM),
 * MHz, into *mhz: 0, or -1 when NVML does not give it. It is the clock the
 * driver sets; the SMs' own cycle rate (clock64) can run below it. */
int gc_power_clock_mhz(gc_power_t *p, double *mhz);

/* The GPU's temperature now (nvmlDeviceGetTemperature, NVML_TEMPERATURE_GPU),
 * degrees C, into *c: 0, or -1 when NVML does not give it. */
int gc_power_temp_c(gc_power_t *p, double *c);

/* Closes NVML; p may be NULL. */
void gc_power_close(gc_power_t *p);

#ifdef __cplusplus
}
#endif
#endif
