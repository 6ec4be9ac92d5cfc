#include "services/api/field_limits.h"

#include <google/protobuf/descriptor.h>

#include "mancala/v1/field_limits.pb.h"
#include "services/base/text.h"
#include "services/wire/errors.h"

namespace mancala::services {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

grpc::Status TooLong(const std::string& path, const std::string& what) {
  return GrpcError(grpc::StatusCode::INVALID_ARGUMENT, "FIELD_TOO_LONG",
                   path + " " + what, {{"field", path}});
}

// Strings arrive as valid UTF-8: protobuf refuses a request otherwise
// (unparsed_request.h answers it).
grpc::Status CheckString(const std::string& value, int max_chars,
                         const std::string& path) {
  if (max_chars > 0 && CharCount(value) > static_cast<size_t>(max_chars)) {
    return TooLong(
        path, "is longer than " + std::to_string(max_chars) + " characters");
  }
  return grpc::Status::OK;
}

grpc::Status CheckMessage(const Message& m, const std::string& prefix);

// One element of `field` (index `i`, or the singular value when i < 0).
grpc::Status CheckValue(const Message& m, const FieldDescriptor* f, int i,
                        int max_chars, const std::string& path) {
  const Reflection* r = m.GetReflection();
  if (f->type() == FieldDescriptor::TYPE_STRING) {
    std::string scratch;
    const std::string& v =
        i < 0 ? r->GetStringReference(m, f, &scratch)
              : r->GetRepeatedStringReference(m, f, i, &scratch);
    return CheckString(v, max_chars, path);
  }
  if (f->type() == FieldDescriptor::TYPE_MESSAGE) {
    const Message& sub =
        i < 0 ? r->GetMessage(m, f) : r->GetRepeatedMessage(m, f, i);
    if (f->is_map()) {
      // A map entry: the field's max_chars bounds the key and the value.
      const google::protobuf::Descriptor* d = sub.GetDescriptor();
      for (int k = 0; k < d->field_count(); ++k) {
        const FieldDescriptor* kv = d->field(k);
        if (kv->type() != FieldDescriptor::TYPE_STRING) continue;
        std::string scratch;
        const std::string& v =
            sub.GetReflection()->GetStringReference(sub, kv, &scratch);
        if (grpc::Status s = CheckString(v, max_chars, path + "." + kv->name());
            !s.ok()) {
          return s;
        }
      }
      return grpc::Status::OK;
    }
    return CheckMessage(sub, path + ".");
  }
  return grpc::Status::OK;
}

grpc::Status CheckMessage(const Message& m, const std::string& prefix) {
  const google::protobuf::Descriptor* d = m.GetDescriptor();
  const Reflection* r = m.GetReflection();
  for (int k = 0; k < d->field_count(); ++k) {
    const FieldDescriptor* f = d->field(k);
    const auto& opts = f->options();
    const int max_chars = opts.GetExtension(v1::max_chars);
    const std::string path = prefix + f->name();
    if (!f->is_repeated()) {
      if (f->type() == FieldDescriptor::TYPE_MESSAGE && !r->HasField(m, f)) {
        continue;
      }
      if (grpc::Status s = CheckValue(m, f, -1, max_chars, path); !s.ok()) {
        return s;
      }
      continue;
    }
    const int n = r->FieldSize(m, f);
    const int max_entries = opts.GetExtension(v1::max_entries);
    if (max_entries > 0 && n > max_entries) {
      return TooLong(
          path, "has more than " + std::to_string(max_entries) + " entries");
    }
    for (int i = 0; i < n; ++i) {
      const std::string at =
          f->is_map() ? path : path + "[" + std::to_string(i) + "]";
      if (grpc::Status s = CheckValue(m, f, i, max_chars, at); !s.ok()) {
        return s;
      }
    }
  }
  return grpc::Status::OK;
}

}  // namespace

grpc::Status CheckFieldLimits(const google::protobuf::Message& request) {
  return CheckMessage(request, "");
}

}  // namespace mancala::services
