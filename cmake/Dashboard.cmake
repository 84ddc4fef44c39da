# The dashboard's assets (report --html, serve): uPlot from npm, fetched by `npm ci` from
# web/package-lock.json into the build tree at configure time, and the dashboard's own scripts
# and styles (src/report/html/assets/), all embedded into the binary so that the site needs
# nothing from the network.
option(BENCHGUARD_DASHBOARD "Build the HTML dashboard (needs npm at configure time)" ON)

set(BENCHGUARD_DASHBOARD_ASSETS "")
if(BENCHGUARD_DASHBOARD)
  set(web_dir ${PROJECT_BINARY_DIR}/web)
  set(uplot_dir ${web_dir}/node_modules/uplot/dist)
  file(MAKE_DIRECTORY ${web_dir})
  configure_file(${PROJECT_SOURCE_DIR}/web/package.json ${web_dir}/package.json COPYONLY)
  configure_file(${PROJECT_SOURCE_DIR}/web/package-lock.json ${web_dir}/package-lock.json COPYONLY)
  file(SHA256 ${web_dir}/package-lock.json lock_hash)
  set(stamp ${web_dir}/node_modules/.benchguard-lock)
  set(installed "")
  if(EXISTS ${stamp})
    file(READ ${stamp} installed)
  endif()
  if(NOT "${installed}" STREQUAL "${lock_hash}" OR NOT EXISTS ${uplot_dir}/uPlot.iife.min.js)
    find_program(BENCHGUARD_NPM npm)
    if(NOT BENCHGUARD_NPM)
      message(FATAL_ERROR "The dashboard needs npm to fetch its chart library (uPlot) at "
        "configure time: install it (Debian: apt-get install npm; scripts/install-deps.sh does), "
        "or configure with -DBENCHGUARD_DASHBOARD=OFF to build without `report --html` and "
        "`serve`.")
    endif()
    message(STATUS "Fetching the dashboard's chart library: npm ci in ${web_dir}")
    execute_process(
      COMMAND ${BENCHGUARD_NPM} ci --ignore-scripts --no-audit --no-fund
      WORKING_DIRECTORY ${web_dir}
      RESULT_VARIABLE npm_result OUTPUT_VARIABLE npm_out ERROR_VARIABLE npm_err)
    if(NOT npm_result EQUAL 0 OR NOT EXISTS ${uplot_dir}/uPlot.iife.min.js)
      message(FATAL_ERROR "npm ci failed in ${web_dir} (exit ${npm_result}), so the dashboard's "
        "chart library is missing. npm said:\n${npm_out}${npm_err}\nCheck that the npm registry "
        "is reachable (or npm's cache holds uplot), or configure with "
        "-DBENCHGUARD_DASHBOARD=OFF to build without `report --html` and `serve`.")
    endif()
    file(WRITE ${stamp} "${lock_hash}")
  endif()
  # The licence travels with the library into every site. The library's banner names its
  # home page; the site names no external URL at all, so the banner names the licence instead.
  configure_file(${web_dir}/node_modules/uplot/LICENSE ${web_dir}/uPlot.LICENSE.txt COPYONLY)
  file(READ ${uplot_dir}/uPlot.iife.min.js uplot_js)
  string(REGEX REPLACE "^/\\*! https://github.com/leeoniya/uPlot " "/*! uPlot (MIT, uPlot.LICENSE.txt) "
    uplot_js "${uplot_js}")
  file(WRITE ${web_dir}/uPlot.iife.min.js "${uplot_js}")
  file(GLOB dashboard_own CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/report/html/assets/*)
  list(SORT dashboard_own)
  set(BENCHGUARD_DASHBOARD_ASSETS ${web_dir}/uPlot.iife.min.js ${uplot_dir}/uPlot.min.css
    ${web_dir}/uPlot.LICENSE.txt ${dashboard_own})
else()
  message(STATUS "BENCHGUARD_DASHBOARD=OFF: built without the HTML dashboard (report --html, serve)")
endif()
benchguard_embed(${PROJECT_BINARY_DIR}/generated/dashboard_embedded.cpp
  dashboard_asset_files ${BENCHGUARD_DASHBOARD_ASSETS})
