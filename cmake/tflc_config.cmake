# tflc's build configuration from CMake variables, one header for all the
# build systems built on CMake (plain CMake, ESP-IDF, Zephyr).
#
#   tflc_config_header(OUT_VAR PREFIX)
#
# reads ${PREFIX}CONFIG_FILE (a header of the user's, as `tflc ops MODEL
# --config -o tflc_config.h` writes), ${PREFIX}OPS (operator names, list
# or space-separated: CONV_2D SOFTMAX ...) and the switches
# ${PREFIX}INT8_ONLY, ${PREFIX}NO_FLOAT32, ... (true values: ON, y, 1) and
# writes tflc_config_cmake.h in the current binary folder: the user's
# header's text first, then one #define per switch set. OUT_VAR receives
# its path, or "" when nothing is set (no TFLC_CONFIG_FILE needed).
# A function-style TFLC_OPS(X) cannot go through -D (CMake drops such
# definitions), which is why the header exists.
set(TFLC_CONFIG_SWITCHES INT8_ONLY NO_FLOAT32 NO_INT16 NO_COMPRESSION
    NO_SUBGRAPHS NO_DELEGATES NO_USER_OPS NO_ERROR_STRINGS NO_CONV_WINDOWS
    NO_DW_ANY_FILTER)

function(tflc_config_header out_var prefix)
  set(body "")
  set(file "${${prefix}CONFIG_FILE}")
  if(file)
    if(NOT IS_ABSOLUTE "${file}")
      if(EXISTS "${CMAKE_SOURCE_DIR}/${file}")
        set(file "${CMAKE_SOURCE_DIR}/${file}")
      elseif(EXISTS "${CMAKE_CURRENT_BINARY_DIR}/${file}")
        set(file "${CMAKE_CURRENT_BINARY_DIR}/${file}")
      endif()
    endif()
    if(NOT EXISTS "${file}")
      message(FATAL_ERROR "tflc: TFLC_CONFIG_FILE ${file} does not exist")
    endif()
    # its text, so that the generated header stands alone (installed
    # beside tflc.h); CMake reconfigures when the file changes
    file(READ "${file}" user_text)
    string(APPEND body "/* ${file} */\n${user_text}\n")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
  endif()
  set(ops "${${prefix}OPS}")
  if(ops)
    string(REPLACE " " ";" ops "${ops}")
    set(line "#define TFLC_OPS(X)")
    foreach(op IN LISTS ops)
      if(op)
        string(APPEND line " X(${op})")
      endif()
    endforeach()
    string(APPEND body "#undef TFLC_OPS\n${line}\n")
  endif()
  foreach(sw IN LISTS TFLC_CONFIG_SWITCHES)
    if(${prefix}${sw})
      string(APPEND body "#ifndef TFLC_${sw}\n#define TFLC_${sw}\n#endif\n")
    endif()
  endforeach()
  if(body STREQUAL "")
    set(${out_var} "" PARENT_SCOPE)
    return()
  endif()
  set(path "${CMAKE_CURRENT_BINARY_DIR}/tflc_config_cmake.h")
  set(text "/* written by tflc's CMake configuration */\n${body}")
  # rewrite only when it changes (no rebuild otherwise)
  if(EXISTS "${path}")
    file(READ "${path}" old)
  else()
    set(old "")
  endif()
  if(NOT old STREQUAL text)
    file(WRITE "${path}" "${text}")
  endif()
  set(${out_var} "${path}" PARENT_SCOPE)
endfunction()
