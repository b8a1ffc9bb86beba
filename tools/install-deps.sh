#!/usr/bin/env bash
# Install what npusim needs from Debian 12 packages, only what is missing. Uses sudo when not root.
set -euo pipefail
packages=(build-essential cmake ninja-build ccache pkg-config libsystemc-dev libboost-graph-dev libeigen3-dev libfmt-dev
          catch2 libbenchmark-dev nlohmann-json3-dev libcli11-dev
          graphviz   # graphviz: the tests render --dot graphs with `dot`
          libgraphviz-dev # libgvc, libcgraph: the --html report lays out its graphs with Graphviz
          gtkwave    # gtkwave: the tests convert --vcd waveforms with `vcd2fst` (trace:vcd-gtkwave)
          chromium   # chromium: the tests render --html reports in headless Chromium (trace:html-chromium)
          libopenmpi-dev openmpi-bin # Open MPI: `mpirun -np N npusim sweep` (tools:sweep-mpi)
          mlir-16-tools # mlir-opt-16: the tests parse `npusim export --generic` modules with it (tools:export-mlir-opt)
          libxrt-dev # XRT 202210.2.13 headers and libxrt_coreutil: for running designs on a real NPU (hw/)
          python3-jsonschema python3-numpy # the tests validate --json output and load .npy files (tools:json-schemas, tools:npy-numpy)
          pybind11-dev python3-dev python3-pytest) # the Python module (python/) and its pytest suite (tests/python)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "npusim: all build dependencies are installed"
  exit 0
fi
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "npusim: installing ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
