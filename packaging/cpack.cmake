# SPDX-License-Identifier: GPL-3.0-or-later
# Desktop integration files and the Debian package (cpack -G DEB from a release build).
install(FILES ${CMAKE_CURRENT_LIST_DIR}/nsys-workbench.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/nsys-workbench-mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages
        RENAME nsys-workbench.xml)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/io.github.nsys_workbench.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/nsys-workbench.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
if(EXISTS ${PROJECT_SOURCE_DIR}/resources/demo)
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/demo/ DESTINATION ${CMAKE_INSTALL_DATADIR}/nsys-workbench/demo)
endif()

set(CPACK_PACKAGE_NAME "nsys-workbench")
set(CPACK_PACKAGE_VENDOR "nsys-workbench developers")
set(CPACK_PACKAGE_CONTACT "nsys-workbench developers <nsys-workbench@example.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Workbench for Nsight Systems SQLite exports")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_GENERATOR "DEB")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Loaded as a plugin at run time, so shlibdeps cannot see it.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "shared-mime-info, desktop-file-utils")
include(CPack)
