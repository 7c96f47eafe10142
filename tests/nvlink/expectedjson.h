// SPDX-License-Identifier: GPL-3.0-or-later
// What correlate_nsys_nvlink.py / analyze_nvlink_throughput.py print with --json for the scenario of
// nvlinkscenario.h, written out by hand from the scenario's numbers (json.dumps(..., indent=2) layout: floats as
// Python repr, an overlap that is "interval end − interval start" stays an int).
#pragma once

namespace nsw::test {

inline constexpr char kExpectedPeakKernelsTop1[] = R"({
  "peak_kernels": {
    "peak_interval": {
      "start_us": 1700000000002000,
      "end_us": 1700000000003000,
      "duration_us": 1000,
      "throughput_gbps": 2.048,
      "bytes_transferred": 2048000,
      "link_id": 1,
      "direction": "TX",
      "timestamp_iso": "2023-11-14T22:13:20.002Z"
    },
    "kernels": [
      {
        "name": "persistentKernel",
        "start_us": 1699999999990000.0,
        "end_us": 1700000000090000.0,
        "duration_us": 100000.0,
        "device_id": 0,
        "stream_id": 7,
        "overlap_us": 1000,
        "overlap_pct": 100.0,
        "is_nccl": false
      },
      {
        "name": "ncclDevKernel_AllReduce",
        "start_us": 1700000000001500.0,
        "end_us": 1700000000003500.0,
        "duration_us": 2000.0,
        "device_id": 0,
        "stream_id": 13,
        "overlap_us": 1000,
        "overlap_pct": 100.0,
        "is_nccl": true
      },
      {
        "name": "gemm_kernel",
        "start_us": 1700000000002250.0,
        "end_us": 1700000000002750.0,
        "duration_us": 500.0,
        "device_id": 0,
        "stream_id": 7,
        "overlap_us": 500.0,
        "overlap_pct": 50.0,
        "is_nccl": false
      },
      {
        "name": "elementwise_kernel",
        "start_us": 1700000000002900.0,
        "end_us": 1700000000003200.0,
        "duration_us": 300.0,
        "device_id": 0,
        "stream_id": 7,
        "overlap_us": 100.0,
        "overlap_pct": 10.0,
        "is_nccl": false
      }
    ],
    "num_kernels": 4,
    "num_nccl_kernels": 1
  }
})";

/// --top 2 --direction rx --nccl-only: link 0 RX interval 4 (0.512 GB/s), then link 0 RX interval 1 (0.0512).
inline constexpr char kExpectedPeakKernelsRxTop2Nccl[] = R"({
  "peak_kernels": {
    "peaks": [
      {
        "interval": {
          "start_us": 1700000000004000,
          "end_us": 1700000000005000,
          "duration_us": 1000,
          "throughput_gbps": 0.512,
          "bytes_transferred": 512000,
          "link_id": 0,
          "direction": "RX",
          "timestamp_iso": "2023-11-14T22:13:20.004Z"
        },
        "kernels": [
          {
            "name": "ncclKernel_SendRecv",
            "start_us": 1700000000004500.0,
            "end_us": 1700000000006000.0,
            "duration_us": 1500.0,
            "device_id": 0,
            "stream_id": 13,
            "overlap_us": 500.0,
            "overlap_pct": 50.0,
            "is_nccl": true
          }
        ],
        "num_kernels": 1,
        "num_nccl_kernels": 1
      },
      {
        "interval": {
          "start_us": 1700000000001000,
          "end_us": 1700000000002000,
          "duration_us": 1000,
          "throughput_gbps": 0.0512,
          "bytes_transferred": 51200,
          "link_id": 0,
          "direction": "RX",
          "timestamp_iso": "2023-11-14T22:13:20.001Z"
        },
        "kernels": [
          {
            "name": "ncclDevKernel_AllReduce",
            "start_us": 1700000000001500.0,
            "end_us": 1700000000003500.0,
            "duration_us": 2000.0,
            "device_id": 0,
            "stream_id": 13,
            "overlap_us": 500.0,
            "overlap_pct": 50.0,
            "is_nccl": true
          }
        ],
        "num_kernels": 1,
        "num_nccl_kernels": 1
      }
    ],
    "num_peaks": 2
  }
})";

/// tools/main.py --metric nvlink_all (analyze_nvlink_throughput.metric_cal(dir, "all")). The average is the plain
/// left-to-right float sum of Python up to 3.11 (3.12 sums floats with compensation and prints 0.18944).
inline constexpr char kExpectedNvlinkAll[] = R"({
  "max_throughput": {
    "max_throughput_gbps": 2.048,
    "link_id": 1,
    "direction": "TX",
    "timestamp_us": 1700000000002000,
    "interval_duration_us": 1000,
    "interval_bytes": 2048000
  },
  "avg_throughput": {
    "avg_throughput_gbps": 0.18943999999999997,
    "total_duration_us": 20000,
    "num_intervals": 20,
    "num_active_intervals": 10
  },
  "total_communication": {
    "total_bytes": 1894400,
    "total_gb": 0.0018944,
    "rx_bytes": 614400,
    "tx_bytes": 3174400
  }
})";

} // namespace nsw::test
