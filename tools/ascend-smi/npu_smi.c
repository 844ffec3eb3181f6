// SPDX-License-Identifier: MIT
/*
 * npu_smi.c - the npu-smi commands (npu_smi.h), in npu-smi's layout:
 *
 *   npu-smi info                       device table, then process table
 *   npu-smi info -l                    NPUs and their chip counts
 *   npu-smi info -m                    NPU / chip / logic id / chip name
 *   npu-smi info -t board -i N [-c 0]  board (with -c: chip) identity
 *   npu-smi info -t usages -i N [-c 0] capacities and usage rates
 *   npu-smi info -t memory -i N [-c 0] memory sizes and clocks
 *   npu-smi info -t proc-mem -i N [-c 0]  processes and their HBM
 *   npu-smi info -t temp|power|health -i N [-c 0]  sensors (NA), health
 *
 * Devices as ascend-smi finds them (smi_dev.c), processes from fdinfo
 * (smi_proc.c).  What the driver does not measure (power, temperatures,
 * AI-core utilisation, clocks, serial numbers) is "NA", as npu-smi prints
 * unsupported values; the device has HBM and no DDR, so its DDR and
 * DDR huge pages are 0.  MB are MiB.  The layout, field by field, is in
 * Documentation/npu-smi.rst.
 *
 * Exit status: 0 when every device shown answered, 1 when one did not,
 * 2 on usage errors, 3 when there is no such NPU or chip (or no NPU).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npu_smi.h"
#include "smi_dev.h"
#include "smi_proc.h"

#ifndef ASCEND_SMI_VERSION
#define ASCEND_SMI_VERSION "0.0.0"
#endif

#define NA	"NA"

/* The three columns of both tables: 27, 15 and 52 characters wide. */
#define RULE_DASH "+---------------------------+---------------+" \
		  "----------------------------------------------------+"
#define RULE_EQ   "+===========================+===============+" \
		  "====================================================+"
#define RULE_TOP  "+-----------------------------------------------" \
		  "-------------------------------------------------+"

static struct smi_dev devs[SMI_MAX_DEVICES];
static int ndevs;

/* "\t<key padded to 30> : <value>", the form of every -t and -l line. */
static void kv(const char *key, const char *fmt, ...)
{
	va_list ap;

	printf("\t%-30s : ", key);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static unsigned long long mb(unsigned long long bytes)
{
	return bytes / SMI_MIB;
}

/*
 * The SoC name in npu-smi's parts: "Ascend910B4" is chip type "Ascend",
 * chip name "910B4"; "Ascend910_9392" (an A3 part) chip name "Ascend910",
 * NPU name "9392", no chip type.
 */
struct soc_parts {
	char type[32];
	char name[32];
	char npu_name[32];
};

static void soc_split(const struct smi_dev *d, struct soc_parts *p)
{
	const char *soc = smi_healthy(d) ? d->info.soc_name : "";
	const char *us = strchr(soc, '_');

	memset(p, 0, sizeof(*p));
	if (!*soc) {
		snprintf(p->name, sizeof(p->name), NA);
	} else if (us) {
		snprintf(p->name, sizeof(p->name), "%.*s", (int)(us - soc), soc);
		snprintf(p->npu_name, sizeof(p->npu_name), "%s", us + 1);
	} else if (!strncmp(soc, "Ascend", 6) && soc[6]) {
		snprintf(p->type, sizeof(p->type), "Ascend");
		snprintf(p->name, sizeof(p->name), "%s", soc + 6);
	} else {
		snprintf(p->name, sizeof(p->name), "%s", soc);
	}
}

/* npu-smi's health words: OK, or Critical for a device that does not answer. */
static const char *health(const struct smi_dev *d)
{
	if (smi_healthy(d))
		return "OK";
	if (d->open_errno == EACCES || d->open_errno == EPERM)
		return NA;	/* this user may not ask */
	return "Critical";
}

static const char *driver_version(void)
{
	int i;

	for (i = 0; i < ndevs; i++)
		if (devs[i].driver_version[0])
			return devs[i].driver_version;
	return NA;
}

/* --- npu-smi info ------------------------------------------------------ */

static void print_device(const struct smi_dev *d)
{
	char hbm_used[24] = NA, hbm_total[24] = NA;
	struct soc_parts p;

	soc_split(d, &p);
	if (smi_healthy(d)) {
		snprintf(hbm_used, sizeof(hbm_used), "%llu", mb(smi_hbm_used(d)));
		snprintf(hbm_total, sizeof(hbm_total), "%llu",
			 mb(d->info.hbm_total));
	}
	printf("| %-6u%-20.20s| %-14.14s| %-12s%-18s%-5s/ %-14s|\n", d->index,
	       p.name, health(d), NA, NA, "0", "0");
	printf("| %-26u| %-14.14s| %-12s%-5s/ %-11s%-5s/ %-14s|\n", 0, d->bus, NA,
	       "0", "0", hbm_used, hbm_total);
	puts(RULE_EQ);
}

static void print_processes(const struct smi_proc *procs, int nprocs)
{
	int i, j;

	puts(RULE_DASH);
	printf("| %-8s%-18s| %-14s| %-25s| %-24s|\n", "NPU", "Chip", "Process id",
	       "Process name", "Process memory(MB)");
	puts(RULE_EQ);
	for (i = 0; i < ndevs; i++) {
		int shown = 0;

		for (j = 0; j < nprocs; j++) {
			char mem[24] = NA;

			if (procs[j].npu != devs[i].index)
				continue;
			if (procs[j].stats)
				snprintf(mem, sizeof(mem), "%llu",
					 mb(procs[j].hbm));
			printf("| %-8u%-18u| %-14d| %-25.25s| %-24s|\n",
			       devs[i].index, 0, (int)procs[j].pid, procs[j].comm, mem);
			shown++;
		}
		if (!shown) {
			char line[96];

			snprintf(line, sizeof(line), "No running processes found in NPU %u",
				 devs[i].index);
			printf("| %-95s|\n", line);
		}
		puts(RULE_EQ);
	}
}

static int cmd_table(void)
{
	struct smi_proc *procs = NULL;
	char title[48], version[80];
	int i, nprocs, rc = 0;

	nprocs = smi_procs(devs, ndevs, &procs);
	if (nprocs < 0) {
		fprintf(stderr, "npu-smi: cannot read /proc: %s\n", strerror(errno));
		nprocs = 0;
	}
	snprintf(title, sizeof(title), "npu-smi %s", ASCEND_SMI_VERSION);
	snprintf(version, sizeof(version), "Version: %s", driver_version());
	puts(RULE_TOP);
	printf("| %-33s%-62s|\n", title, version);
	puts(RULE_DASH);
	printf("| %-6s%-20s| %-14s| %-12s%-18s%-21s|\n", "NPU", "Name", "Health",
	       "Power(W)", "Temp(C)", "Hugepages-Usage(page)");
	printf("| %-26s| %-14s| %-12s%-18s%-21s|\n", "Chip", "Bus-Id", "AICore(%)",
	       "Memory-Usage(MB)", "HBM-Usage(MB)");
	puts(RULE_EQ);
	for (i = 0; i < ndevs; i++) {
		print_device(&devs[i]);
		if (!smi_healthy(&devs[i]))
			rc = 1;
	}
	print_processes(procs, nprocs);
	free(procs);
	return rc;
}

/* --- npu-smi info -l / -m ------------------------------------------------ */

static int cmd_list(void)
{
	int i;

	/* npu-smi ends every block, the last one too, with a blank line */
	kv("Total Count", "%d", ndevs);
	putchar('\n');
	for (i = 0; i < ndevs; i++) {
		kv("NPU ID", "%u", devs[i].index);
		kv("Chip Count", "%d", 1);
		putchar('\n');
	}
	return 0;
}

/*
 * The logic id is the device id of the runtime (aclrtSetDevice): the
 * answering devices ordered by their device index (libaclrt devnode.c).
 */
static int logic_id(const struct smi_dev *d)
{
	int i, id = 0;

	if (!smi_healthy(d))
		return -1;
	for (i = 0; i < ndevs; i++)
		if (smi_healthy(&devs[i]) &&
		    (devs[i].info.device_index < d->info.device_index ||
		     (devs[i].info.device_index == d->info.device_index &&
		      devs[i].index < d->index)))
			id++;
	return id;
}

static int cmd_map(void)
{
	int i, rc = 0;

	/* 30-character columns and a blank, the header's last one padded too */
	printf("\t%-30s %-30s %-30s %-30s\n", "NPU ID", "Chip ID", "Chip Logic ID", "Chip Name");
	for (i = 0; i < ndevs; i++) {
		int id = logic_id(&devs[i]);
		char logic[16] = "-", name[72];
		struct soc_parts p;

		soc_split(&devs[i], &p);
		if (id >= 0)
			snprintf(logic, sizeof(logic), "%d", id);
		else
			rc = 1;
		snprintf(name, sizeof(name), "%s%s%s", p.type, p.type[0] ? " " : "", p.name);
		printf("\t%-30u %-30d %-30s %s\n", devs[i].index, 0, logic, name);
	}
	return rc;
}

/* --- npu-smi info -t TYPE -i N [-c C] ------------------------------------- */

static const char *or_na(const char *s)
{
	return s && *s ? s : NA;
}

/*
 * npu-smi's frame of the per-chip types (usages, temp, power, health):
 * the NPU and its chip count, then per chip a blank line, the chip's
 * lines and its id.
 */
static void chip_frame_open(const struct smi_dev *d)
{
	kv("NPU ID", "%u", d->index);
	kv("Chip Count", "%d", 1);
	putchar('\n');
}

static void type_board(const struct smi_dev *d)
{
	kv("NPU ID", "%u", d->index);
	kv("Product Name", "%s", or_na(d->driver_desc));
	kv("Model", NA);
	kv("Manufacturer", NA);
	kv("Serial Number", NA);
	kv("Software Version", "%s", or_na(d->driver_version));
	kv("Firmware Version", NA);
	kv("Compatibility", "%s", smi_healthy(d) ? "OK" : NA);
	kv("Board ID", NA);
	kv("PCB ID", NA);
	kv("BOM ID", NA);
	kv("PCIe Bus Info", "%s", d->bus);
	kv("Slot ID", NA);
	kv("Class ID", NA);
	kv("PCI Vendor ID", NA);
	kv("PCI Device ID", NA);
	kv("Subsystem Vendor ID", NA);
	kv("Subsystem Device ID", NA);
	kv("Chip Count", "%d", 1);
}

/* -t board -c 0: the chip, whose type and name make the SoC name */
static void type_board_chip(const struct smi_dev *d)
{
	struct soc_parts p;

	soc_split(d, &p);
	kv("NPU ID", "%u", d->index);
	if (p.npu_name[0])
		kv("NPU Name", "%s", p.npu_name);
	kv("Chip ID", "%d", 0);
	if (!p.npu_name[0])
		kv("Chip Type", "%s", or_na(p.type));
	kv("Chip Name", "%s", p.name);
	kv("Chip Version", NA);
	kv("Board ID", NA);
	kv("PCB ID", NA);
	kv("BOM ID", NA);
	kv("VDie ID", NA);
	kv("NDie ID", NA);
	kv("Chip Position ID", "%d", 0);
	kv("PCIe Bus Info", "%s", d->bus);
	kv("Firmware Version", NA);
}

static void type_usages(const struct smi_dev *d)
{
	unsigned long long total = d->info.hbm_total, used = smi_hbm_used(d);

	chip_frame_open(d);
	kv("DDR Capacity(MB)", "0");
	kv("DDR Usage Rate(%)", "0");
	kv("DDR Hugepages Total(page)", "0");
	kv("DDR Hugepages Usage Rate(%)", "0");
	if (smi_healthy(d) && total) {
		kv("HBM Capacity(MB)", "%llu", mb(total));
		/* rounded to the nearest percent */
		kv("HBM Usage Rate(%)", "%llu", (used * 100 + total / 2) / total);
	} else {
		kv("HBM Capacity(MB)", NA);
		kv("HBM Usage Rate(%)", NA);
	}
	kv("Aicore Usage Rate(%)", NA);
	kv("Aivector Usage Rate(%)", NA);
	kv("Aicpu Usage Rate(%)", NA);
	kv("Ctrlcpu Usage Rate(%)", NA);
	kv("DDR Bandwidth Usage Rate(%)", "0");
	kv("HBM Bandwidth Usage Rate(%)", NA);
	kv("NPU Utilization(%)", NA);
	kv("Aicube Usage Rate(%)", NA);
	kv("Chip ID", "%d", 0);
}

static void type_memory(const struct smi_dev *d)
{
	kv("NPU ID", "%u", d->index);
	kv("DDR Capacity(MB)", "0");
	kv("DDR Clock Speed(MHz)", "0");
	if (smi_healthy(d))
		kv("HBM Capacity(MB)", "%llu", mb(d->info.hbm_total));
	else
		kv("HBM Capacity(MB)", NA);
	kv("HBM Clock Speed(MHz)", NA);
	kv("HBM Temperature(C)", NA);
	kv("HBM Manufacturer ID", NA);
	kv("Chip ID", "%d", 0);
}

/* The processes with a file open on @d and the HBM they hold (smi_proc.c). */
static int type_proc_mem(const struct smi_dev *d)
{
	struct smi_proc *procs = NULL;
	int i, n, shown = 0;

	n = smi_procs(d, 1, &procs);
	if (n < 0) {
		fprintf(stderr, "npu-smi: cannot read /proc: %s\n", strerror(errno));
		return 1;
	}
	kv("NPU ID", "%u", d->index);
	for (i = 0; i < n; i++) {
		char mem[24] = NA;

		if (procs[i].stats)
			snprintf(mem, sizeof(mem), "%llu", mb(procs[i].hbm));
		printf("\tProcess id:%-7d Process name:%-17s Process memory(MB):%s\n",
		       (int)procs[i].pid, procs[i].comm, mem);
		shown++;
	}
	if (!shown)
		printf("\tNo process in device.\n");
	kv("Chip ID", "%d", 0);
	free(procs);
	return 0;
}

/* No temperature sensor is read: NA, as npu-smi shows an unread sensor. */
static void type_temp(const struct smi_dev *d)
{
	chip_frame_open(d);
	kv("NPU Temperature (C)", NA);
	kv("Chip ID", "%d", 0);
}

static void type_power(const struct smi_dev *d)
{
	chip_frame_open(d);
	kv("NPU Real-time Power(W)", NA);
	kv("Chip ID", "%d", 0);
}

/* With -c only the chip's three lines, as npu-smi prints them. */
static void type_health(const struct smi_dev *d, bool chip)
{
	if (!chip)
		chip_frame_open(d);
	kv("Health Status", "%s", health(d));
	kv("Error Code", NA);
	kv("Error Information", "%s", smi_healthy(d) ? NA : smi_health_detail(d));
	if (!chip)
		kv("Chip ID", "%d", 0);
}

/* --- command line -------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: npu-smi info                        devices and processes\n"
		"       npu-smi info -l                     NPUs and their chips\n"
		"       npu-smi info -m                     NPU, chip and logic ids\n"
		"       npu-smi info -t TYPE -i NPU [-c 0]  TYPE: board, usages, memory,\n"
		"                                           proc-mem, temp, power, health\n"
		"       npu-smi --json [ascend-smi options] ascend-smi's JSON\n"
		"       npu-smi --version | --help\n");
}

/* The -t types, in the order the usage and the messages name them. */
static const char *const types[] = {
	"board", "usages", "memory", "proc-mem", "temp", "power", "health",
};

static bool known_type(const char *t)
{
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(t, types[i]))
			return true;
	return false;
}

static int show_type(const char *type, const struct smi_dev *d, bool chip)
{
	if (!strcmp(type, "board")) {
		if (chip)
			type_board_chip(d);
		else
			type_board(d);
	} else if (!strcmp(type, "usages")) {
		type_usages(d);
	} else if (!strcmp(type, "memory")) {
		type_memory(d);
	} else if (!strcmp(type, "proc-mem")) {
		return type_proc_mem(d);
	} else if (!strcmp(type, "temp")) {
		type_temp(d);
	} else if (!strcmp(type, "power")) {
		type_power(d);
	} else {
		type_health(d, chip);
	}
	return smi_healthy(d) ? 0 : 1;
}

static bool parse_id(const char *s, unsigned int *v)
{
	unsigned long n;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || *end || n > 0xffffffffUL)
		return false;
	*v = (unsigned int)n;
	return true;
}

bool npu_smi_invoked(const char *argv0)
{
	const char *base = argv0 ? strrchr(argv0, '/') : NULL;

	base = base ? base + 1 : argv0;
	return base && !strncmp(base, "npu-smi", 7) && (!base[7] || base[7] == '.');
}

static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "npu-smi: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	usage(stderr);
	return 2;
}

int npu_smi_main(int argc, char **argv)
{
	const char *type = NULL, *id_arg = NULL, *chip_arg = NULL;
	bool list = false, map = false;
	const struct smi_dev *d = NULL;
	unsigned int id = 0, chip = 0;
	int i;

	if (argc < 2)
		return bad_usage("%s", "a command is needed");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-v")) {
		printf("npu-smi %s (ascend-smi)\n", ASCEND_SMI_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "info"))
		return bad_usage("unknown command '%s' (only 'info' is supported)", argv[1]);
	for (i = 2; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-l")) {
			list = true;
		} else if (!strcmp(a, "-m")) {
			map = true;
		} else if (!strcmp(a, "-t") || !strcmp(a, "-i") || !strcmp(a, "-c")) {
			if (i + 1 >= argc)
				return bad_usage("%s needs a value", a);
			if (a[1] == 't')
				type = argv[++i];
			else if (a[1] == 'i')
				id_arg = argv[++i];
			else
				chip_arg = argv[++i];
		} else {
			return bad_usage("unknown option '%s'", a);
		}
	}
	if (list + map + !!type > 1)
		return bad_usage("%s", "-l, -m and -t exclude each other");
	if (type && !known_type(type))
		return bad_usage("unknown type '%s' (board, usages, memory, proc-mem, temp, power, "
				 "health)", type);
	if (type && !id_arg)
		return bad_usage("-t %s needs -i NPU (npu-smi info -l lists them)", type);
	if (!type && (id_arg || chip_arg))
		return bad_usage("%s", "-i and -c go with -t TYPE");
	if (id_arg && !parse_id(id_arg, &id))
		return bad_usage("invalid NPU id '%s'", id_arg);
	if (chip_arg && !parse_id(chip_arg, &chip))
		return bad_usage("invalid chip id '%s'", chip_arg);

	ndevs = smi_scan(devs);
	if (!ndevs) {
		fprintf(stderr, "npu-smi: no ascend device (is the module loaded? modprobe ascend)\n");
		return 3;
	}
	if (list)
		return cmd_list();
	if (map)
		return cmd_map();
	if (!type)
		return cmd_table();

	for (i = 0; i < ndevs && !d; i++)
		if (devs[i].index == id)
			d = &devs[i];
	if (!d) {
		fprintf(stderr, "npu-smi: NPU %u does not exist (npu-smi info -l lists them)\n", id);
		return 3;
	}
	if (chip) {
		fprintf(stderr, "npu-smi: NPU %u has no chip %u (it has chip 0 only)\n", id, chip);
		return 3;
	}
	return show_type(type, d, chip_arg != NULL);
}
