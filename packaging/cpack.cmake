# SPDX-License-Identifier: GPL-3.0-or-later
# Debian package of the workbench (cpack -G DEB from a release build).
