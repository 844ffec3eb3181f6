/**
 * Host-side launchers of the sample's device kernels DeviceWrite/DeviceRead.
 */
#ifndef KERNEL_OPS_H
#define KERNEL_OPS_H

#include <cstdint>

/* Block i writes value to devPtr[i] and prints "Source data: <value>". */
void WriteDo(uint32_t blockDim, void* stream, int* devPtr, int value);
/* Block i prints "Destination data: <devPtr[i]>". */
void ReadDo(uint32_t blockDim, void* stream, int* devPtr);

#endif // KERNEL_OPS_H
