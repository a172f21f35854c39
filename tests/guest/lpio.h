/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small file helpers the guest programs share.
 */
#ifndef LPIO_H
#define LPIO_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/loadpin.h>

/* The series' numbers, for kernels whose header lacks them (upstream). */
#ifndef LOADPIN_IOC_SET_TRUSTED_VERITY_DIGESTS
#define LOADPIN_IOC_SET_TRUSTED_VERITY_DIGESTS _IOW('L', 0x00, unsigned int)
#endif
#ifndef LOADPIN_IOC_SEAL_TRUSTED_VERITY_DIGESTS
#define LOADPIN_IOC_SEAL_TRUSTED_VERITY_DIGESTS _IOW('L', 0x01, unsigned int)
#endif

/* test_firmware's trigger, and the firmware loader's search path. */
#define FW_SYSFS "/sys/devices/virtual/misc/test_firmware/trigger_request"
#define FW_PATH_PARAM "/sys/module/firmware_class/parameters/path"

/* Write @s to the sysfs or proc file @path: 0 or the errno. */
static inline int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	int e = 0;

	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) < 0)
		e = errno;
	close(fd);
	return e;
}

#endif /* LPIO_H */
