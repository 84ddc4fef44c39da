// The JSON columns of variants: command (array of strings), params and env (objects whose
// keys keep their order).
#pragma once

#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard::store::sqlite {

std::string command_to_json(const std::vector<std::string>& command);
std::string key_values_to_json(const KeyValues& values);

// `what` names the column in errors ("variant 3 command").
Result<std::vector<std::string>> command_from_json(const std::string& text,
                                                   const std::string& what);
Result<KeyValues> key_values_from_json(const std::string& text, const std::string& what);

}  // namespace benchguard::store::sqlite
