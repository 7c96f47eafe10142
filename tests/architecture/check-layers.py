#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fails when an #include crosses a layer the wrong way.

Layers: core/ < widgets/ < app/. Inside core/ and widgets/, every module (first folder) has a rank, and a file may
include its own module or a module of lower rank only: no cycles, no reaching up. A module missing from the table
is an error, so that a new module gets its place on purpose. core/ reads no QSettings (the window passes the
preferences in).
"""
import os
import re
import sys

CORE = {
    'util': 0, 'jobs': 0,
    'sqlite': 1, 'nsys': 1,
    'profile': 2,
    'stats': 3,
    'nvtx': 4, 'categories': 4, 'nvlink': 4, 'samples': 4,
    'reports': 5, 'analysis': 5, 'timeline': 5, 'iterations': 5, 'focus': 5,
    'compare': 6, 'diagnostics': 6, 'profilecache': 6,
    'ranks': 7,
    'models': 8,
    'session': 9,
    'controllers': 10,
}
WIDGETS = {
    'common': 0, 'shell': 1,
    'kernels': 1, 'statistics': 1, 'nvtx': 1, 'categories': 1, 'nvlink': 1,
    'compare': 2,
    'timeline': 2,  # colours kernels by the categories controller's results
    'iterations': 1,
    'diagnostics': 1,
    'samples': 1,
    'ranks': 1,
}
LAYERS = {'core': (0, CORE), 'widgets': (1, WIDGETS), 'app': (2, None)}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
QSETTINGS = re.compile(r'^\s*#\s*include\s+<QSettings>', re.M)


def module_of(layer, relpath):
    parts = relpath.split('/')
    return parts[0] if len(parts) > 1 else ''


def main(root):
    errors = []
    for layer, (layer_rank, modules) in LAYERS.items():
        base = os.path.join(root, layer)
        for dirpath, _, files in os.walk(base):
            for f in files:
                if not f.endswith(('.h', '.cpp')):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, base)
                src_module = module_of(layer, rel)
                if modules is not None and src_module and src_module not in modules:
                    errors.append(f'{layer}/{rel}: module {layer}/{src_module} has no rank in {sys.argv[0]}')
                    continue
                text = open(path, encoding='utf-8').read()
                if layer == 'core' and QSETTINGS.search(text):
                    errors.append(f'{layer}/{rel}: reads QSettings: core takes the preferences the window passes in '
                                  '(core/util/coresettings.h), so that no CLI result depends on ~/.config')
                for inc in INCLUDE.findall(text):
                    top = inc.split('/')[0]
                    if top not in LAYERS:
                        continue  # same-folder include or a test helper
                    inc_layer_rank, inc_modules = LAYERS[top]
                    where = f'{layer}/{rel}: #include "{inc}"'
                    if inc_layer_rank > layer_rank:
                        errors.append(f'{where}: {layer}/ must not include {top}/')
                        continue
                    if inc_layer_rank < layer_rank or modules is None:
                        continue
                    inc_module = module_of(top, inc[len(top) + 1:])
                    if inc_module == src_module:
                        continue
                    if inc_module not in modules:
                        errors.append(f'{where}: module {top}/{inc_module} has no rank')
                    elif not src_module or modules[inc_module] >= modules[src_module]:
                        errors.append(f'{where}: {layer}/{src_module} (rank {modules.get(src_module)}) must not '
                                      f'include {top}/{inc_module} (rank {modules[inc_module]})')
    for e in errors:
        print(e)
    print(f'{len(errors)} layering violation(s)')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..')))
