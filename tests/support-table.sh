#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The support table of README.md is one of its figures: see
# scripts/readme-figures.sh, which rewrites them all.
exec "$(dirname "$0")/../scripts/readme-figures.sh" "$@"
