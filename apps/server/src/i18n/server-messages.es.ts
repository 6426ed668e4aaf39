/**
 * Spanish (Spain, tú) for every English {message} the server answers with a 4xx (and the few 2xx texts
 * that share the constants). Keyed by the English text as a template: `{name}` stands for a part that
 * varies (a number from a constant, a cat's name, a date), read back from the English answer and given
 * to the ICU Spanish message, so plurals follow the number actually sent.
 * Terms: picture/post -> foto, group -> grupo, block -> bloquear, hide -> ocultar, location -> ubicación.
 * server-messages.test.ts fails when an English text has no entry here, or an entry no longer matches one.
 */
export const SERVER_MESSAGES_ES: Record<string, string> = {
  // Auth and accounts
  'Missing Email or Password': 'Falta el correo electrónico o la contraseña',
  Unauthorized: 'No autorizado',
  Forbidden: 'Prohibido',
  'Feature disabled for demo user': 'Esta función no está disponible para la cuenta de demostración',
  'Please check you have entered a valid user name.':
    'Comprueba que has escrito un nombre de usuario válido.',
  'Please check you have entered your email correctly.':
    'Comprueba que has escrito bien tu correo electrónico.',
  'Please check your password is valid': 'Comprueba que tu contraseña es válida',
  'Passwords do not match.': 'Las contraseñas no coinciden.',
  'Please enter your current password': 'Escribe tu contraseña actual',
  'Current password is incorrect': 'La contraseña actual no es correcta',
  'For your safety, please enter your password to confirm':
    'Por seguridad, escribe tu contraseña para confirmar',
  'That display name is already taken': 'Ese nombre visible ya está en uso',
  'That display name looks too much like an existing one; please choose another':
    'Ese nombre visible se parece demasiado a uno que ya existe; elige otro',
  'That email is already registered': 'Ese correo electrónico ya está registrado',
  'Account created': 'Cuenta creada',
  'Too many login attempts, please try again later':
    'Demasiados intentos de inicio de sesión; vuelve a intentarlo más tarde',
  'Too many requests, please try again later': 'Demasiadas solicitudes; vuelve a intentarlo más tarde',
  'Your account is suspended.': 'Tu cuenta está suspendida.',
  'Your account is suspended until {day} {month} {year} at {time} UTC.':
    'Tu cuenta está suspendida hasta el {day} de {month, select, January {enero} February {febrero} March {marzo} April {abril} May {mayo} June {junio} July {julio} August {agosto} September {septiembre} October {octubre} November {noviembre} December {diciembre} other {{month}}} de {year} a las {time} (UTC).',
  'If an account uses that address, we have sent it a link to choose a new password. The link works for 30 minutes.':
    'Si alguna cuenta usa esa dirección, le hemos enviado un enlace para elegir una contraseña nueva. El enlace funciona durante 30 minutos.',
  'This link is invalid, has expired or was already used. Ask for a new one.':
    'Este enlace no es válido, ha caducado o ya se ha usado. Pide uno nuevo.',
  'Too many emails were sent for this account; please try again in an hour':
    'Se han enviado demasiados correos para esta cuenta; vuelve a intentarlo dentro de una hora',
  'User not found': 'No se ha encontrado el usuario',
  'There is no such user': 'Ese usuario no existe',

  // Generic refusals and infrastructure
  'Not found': 'No se ha encontrado',
  'Metrics need the bearer token set in METRICS_TOKEN':
    'Las métricas necesitan el token de portador configurado en METRICS_TOKEN',
  'Route {method} {path} not found': 'No existe la ruta {method} {path}',
  'Invalid request': 'Solicitud no válida',
  'Invalid cursor': 'Cursor no válido',
  'Malformed JSON in request body': 'El cuerpo de la solicitud no es un JSON válido',
  'Request body is too large': 'El cuerpo de la solicitud es demasiado grande',
  'Malformed multipart/form-data body': 'El cuerpo multipart/form-data no es válido',
  'Expected multipart/form-data with an image file':
    'Se esperaba multipart/form-data con un archivo de imagen',
  'Send one image file': 'Envía un solo archivo de imagen',
  'The text contains characters that are not allowed': 'El texto contiene caracteres no permitidos',
  'Service temporarily unavailable, please try again':
    'El servicio no está disponible en este momento; vuelve a intentarlo',
  'Page must be a number': 'La página debe ser un número',
  'Page must be a whole number': 'La página debe ser un número entero',
  'Page starts at 1': 'Las páginas empiezan en 1',
  'Page is too large': 'El número de página es demasiado grande',
  'This is not a valid id': 'Este identificador no es válido',
  'At most {count} ids': 'Como máximo {count, plural, one {# identificador} other {# identificadores}}',

  // Pictures (posts), comments, hiding, blocking, location
  'Post not found': 'No se ha encontrado la foto',
  'Post created': 'Foto publicada',
  'Post hidden': 'Foto ocultada',
  'Post unhidden': 'La foto vuelve a mostrarse',
  'Comment not found': 'No se ha encontrado el comentario',
  'Comment cannot be empty': 'El comentario no puede estar vacío',
  'Comment contains invalid characters': 'El comentario contiene caracteres no válidos',
  'Comment is at most {count} characters':
    'El comentario tiene como máximo {count, plural, one {# carácter} other {# caracteres}}',
  'Caption contains invalid characters': 'El pie de foto contiene caracteres no válidos',
  'Caption is at most {count} characters':
    'El pie de foto tiene como máximo {count, plural, one {# carácter} other {# caracteres}}',
  'You can only delete your own comments or comments on your posts':
    'Solo puedes eliminar tus comentarios o los comentarios de tus fotos',
  'You cannot hide your own post': 'No puedes ocultar tu propia foto',
  'You cannot block yourself': 'No puedes bloquearte a ti mismo',
  'User blocked': 'Usuario bloqueado',
  'You can only change the location of your own posts':
    'Solo puedes cambiar la ubicación de tus propias fotos',
  'No GPS data available': 'No hay datos GPS disponibles',
  'A moderator hid the location of this picture. You can read why and appeal in Settings, under Moderation.':
    'Un moderador ha ocultado la ubicación de esta foto. Puedes leer el motivo y apelar en Ajustes, en Moderación.',
  'Please add a photo': 'Añade una foto',
  'Please choose a picture to upload': 'Elige una foto para subir',
  'Please check file is in jpg or png format': 'Comprueba que el archivo está en formato jpg o png',
  'Only JPEG and PNG images are accepted': 'Solo se aceptan imágenes JPEG y PNG',
  'The image could not be read': 'No se ha podido leer la imagen',
  'Could not store the image, please try again': 'No se ha podido guardar la imagen; vuelve a intentarlo',
  'The image is larger than {mb} MB': 'La imagen ocupa más de {mb} MB',
  'The image is too large (at most {mp} megapixels)':
    'La imagen es demasiado grande (como máximo {mp, plural, one {# megapíxel} other {# megapíxeles}})',
  'The image is too large (at most {px} pixels on its longest side)':
    'La imagen es demasiado grande (como máximo {px} píxeles en su lado más largo)',
  'The image is too narrow (its long side may be at most {ratio} times its short side)':
    'La imagen es demasiado estrecha (su lado largo puede medir como máximo {ratio} veces su lado corto)',
  'The image took too long to process, please send a smaller one':
    'La imagen ha tardado demasiado en procesarse; envía una más pequeña',
  'Invalid post': 'Foto no válida',
  'groupIds must be a JSON array of group ids': 'groupIds debe ser un array JSON de identificadores de grupo',
  'You can only share with groups you belong to': 'Solo puedes compartir con grupos a los que perteneces',
  'Only the owner of a post can share it': 'Solo quien publicó la foto puede compartirla',
  'Send a caption, a cat name, a description or a location to change':
    'Envía un pie de foto, un nombre de gato, una descripción o una ubicación que cambiar',
  'Send latitude and longitude together, or both as null to remove the location':
    'Envía la latitud y la longitud juntas, o ambas como null para quitar la ubicación',
  'Latitude must be a number between -90 and 90': 'La latitud debe ser un número entre -90 y 90',
  'Longitude must be a number between -180 and 180': 'La longitud debe ser un número entre -180 y 180',
  'You can only edit your own pictures': 'Solo puedes editar tus propias fotos',
  'You can only delete your own pictures': 'Solo puedes eliminar tus propias fotos',
  'Picture updated': 'Foto actualizada',
  'Picture restored': 'Foto restaurada',
  'Moved to the trash': 'Movida a la papelera',
  'This picture is not in your trash': 'Esta foto no está en tu papelera',
  'The Idempotency-Key header must be 1 to 255 printable ASCII characters':
    'La cabecera Idempotency-Key debe tener de 1 a 255 caracteres ASCII imprimibles',
  'This Idempotency-Key was already used for a different picture. Send a new picture with a new key.':
    'Esta Idempotency-Key ya se usó para otra foto. Envía la nueva foto con una clave nueva.',
  'This picture was already sent with this Idempotency-Key and has since been deleted: it is in your trash.':
    'Esta foto ya se envió con esta Idempotency-Key y después se eliminó: está en tu papelera.',
  'This picture was already sent with this Idempotency-Key but can no longer be shown.':
    'Esta foto ya se envió con esta Idempotency-Key, pero ya no se puede mostrar.',

  // Map
  'Cluster not found': 'No se ha encontrado el grupo de fotos del mapa',
  'The area is too large for this zoom level': 'La zona es demasiado grande para este nivel de zoom',
  'Give west, south, east, north and zoom together': 'Indica west, south, east, north y zoom a la vez',
  'Give west, south, east, north and zoom: the part of the map to show missing cats in':
    'Indica west, south, east, north y zoom: la parte del mapa en la que mostrar gatos perdidos',
  '{side} must be a number': '{side} debe ser un número',
  '{side} must be between {min} and {max}': '{side} debe estar entre {min} y {max}',
  'south must not be greater than north': 'south no puede ser mayor que north',
  'near must be latitude,longitude': 'near debe ser latitud,longitud',
  'Give the ids of the posts to show': 'Indica los identificadores de las fotos que mostrar',

  // Groups
  'Group not found': 'No se ha encontrado el grupo',
  'Group code is required': 'El código del grupo es obligatorio',
  'Group name is required': 'El nombre del grupo es obligatorio',
  'Group name must be at most {count} characters':
    'El nombre del grupo debe tener como máximo {count, plural, one {# carácter} other {# caracteres}}',
  'Group name must contain a visible character': 'El nombre del grupo debe contener algún carácter visible',
  'Group deleted': 'Grupo eliminado',
  'Member removed': 'Miembro eliminado',
  'New code created; the old one no longer works': 'Código nuevo creado; el anterior ya no funciona',
  'No group found with that code': 'No hay ningún grupo con ese código',
  'No pending request from that user': 'No hay ninguna solicitud pendiente de ese usuario',
  'Only the owner of the group can do that': 'Solo el propietario del grupo puede hacer eso',
  'Request accepted': 'Solicitud aceptada',
  'Request cancelled': 'Solicitud cancelada',
  'Request declined': 'Solicitud rechazada',
  'Request sent. The owner of the group will accept or decline it.':
    'Solicitud enviada. El propietario del grupo la aceptará o la rechazará.',
  'That user is not a member of the group': 'Ese usuario no es miembro del grupo',
  'The owner cannot leave the group; delete the group instead':
    'El propietario no puede salir del grupo; elimina el grupo en su lugar',
  'Too many wrong group codes. Please wait a few minutes before trying again.':
    'Demasiados códigos de grupo incorrectos. Espera unos minutos antes de volver a intentarlo.',
  'You are already a member of that group': 'Ya eres miembro de ese grupo',
  'You are the owner of that group': 'Eres el propietario de ese grupo',
  'You have already asked to join that group; its owner has not answered yet':
    'Ya has pedido unirte a ese grupo; su propietario aún no ha respondido',
  'You have left the group': 'Has salido del grupo',
  'You have no pending request to join that group':
    'No tienes ninguna solicitud pendiente para unirte a ese grupo',
  'Could not find a free group code, please try again':
    'No se ha encontrado un código de grupo libre; vuelve a intentarlo',

  // Cats, suggestions, merges, missing alerts
  'Cat not found': 'No se ha encontrado el gato',
  'Cat name is at most {count} characters':
    'El nombre del gato tiene como máximo {count, plural, one {# carácter} other {# caracteres}}',
  'Name is required': 'El nombre es obligatorio',
  'Name is at most {count} characters':
    'El nombre tiene como máximo {count, plural, one {# carácter} other {# caracteres}}',
  'Name contains invalid characters': 'El nombre contiene caracteres no válidos',
  'Description is at most {count} characters':
    'La descripción tiene como máximo {count, plural, one {# carácter} other {# caracteres}}',
  'Description contains invalid characters': 'La descripción contiene caracteres no válidos',
  'Only the caretakers of this cat can change it': 'Solo quienes cuidan de este gato pueden cambiarlo',
  'Only the caretakers of this cat can raise, renew or end its missing alert':
    'Solo quienes cuidan de este gato pueden activar, renovar o cerrar su aviso de gato perdido',
  'Only the caretakers of this cat can undo a merge':
    'Solo quienes cuidan de este gato pueden deshacer una fusión',
  'Only someone who cares for both cats can merge them': 'Solo quien cuida de ambos gatos puede fusionarlos',
  'Only the author of a picture can answer a suggestion for it':
    'Solo quien publicó una foto puede responder a una sugerencia sobre ella',
  'Only the author of a picture can say which cat it shows':
    'Solo quien publicó una foto puede decir qué gato aparece',
  'Only the author of a picture sees the suggestions for it':
    'Solo quien publicó una foto ve las sugerencias sobre ella',
  'The cover photo must be one of this cat’s sightings':
    'La foto de portada debe ser uno de los avistamientos de este gato',
  'The demo account cannot care for a cat': 'La cuenta de demostración no puede cuidar de un gato',
  'A cat keeps at least one caretaker': 'Un gato conserva siempre al menos una persona que lo cuida',
  'A cat cannot be merged into itself': 'Un gato no se puede fusionar consigo mismo',
  'A merge can be undone for {count} days; this one is older':
    'Una fusión se puede deshacer durante {count, plural, one {# día} other {# días}}; esta es más antigua',
  'Merge not found': 'No se ha encontrado la fusión',
  'That cat was already merged into another cat': 'Ese gato ya se fusionó con otro gato',
  'This cat was merged into another cat since: undo that merge first':
    'Este gato se ha fusionado después con otro gato: deshaz primero esa fusión',
  'This cat was merged into another cat: merge into that one instead':
    'Este gato se fusionó con otro gato: fusiónalo con ese en su lugar',
  'This merge was already undone': 'Esta fusión ya se deshizo',
  'That cat is marked missing. Mark it as found, or let its alert end, before merging it into another profile':
    'Ese gato está marcado como perdido. Márcalo como encontrado, o deja que termine su aviso, antes de fusionarlo con otro perfil',
  'Cat created': 'Gato creado',
  'Cats merged': 'Gatos fusionados',
  'Merge undone': 'Fusión deshecha',
  'Suggestion sent': 'Sugerencia enviada',
  'Suggestion accepted': 'Sugerencia aceptada',
  'Suggestion declined': 'Sugerencia rechazada',
  'Suggestion not found': 'No se ha encontrado la sugerencia',
  'This suggestion was already answered': 'Esta sugerencia ya tiene respuesta',
  'You already suggested a cat for this picture; its author has not answered yet':
    'Ya sugeriste un gato para esta foto; quien la publicó aún no ha respondido',
  'This cat lives with someone: only its caretakers link pictures to it. They can suggest it on your picture with ‘This is…’':
    'Este gato vive con alguien: solo quienes cuidan de él vinculan fotos a él. Pueden sugerirlo en tu foto con «Este gato es…»',
  'This cat lives with someone: only its caretakers say which pictures show it':
    'Este gato vive con alguien: solo quienes cuidan de él dicen qué fotos lo muestran',
  'This is your own picture: say which cat it shows with ‘Which cat is this?’':
    'Esta foto es tuya: di qué gato aparece con «¿Qué gato es este?»',
  'This picture already shows {name}': 'Esta foto ya muestra a {name}',
  'This cat is already marked as missing': 'Este gato ya está marcado como perdido',
  'This cat is not marked as missing': 'Este gato no está marcado como perdido',
  'You have raised {count} missing-cat alerts in the last 24 hours. Please wait before raising another.':
    'Has activado {count, plural, one {# aviso} other {# avisos}} de gato perdido en las últimas 24 horas. Espera antes de activar otro.',
  'You already have {count} open missing-cat alerts. Mark a cat as found, or wait for an alert to expire, before raising another.':
    'Ya tienes {count, plural, one {# aviso de gato perdido abierto} other {# avisos de gato perdido abiertos}}. Marca un gato como encontrado, o espera a que caduque un aviso, antes de activar otro.',
  'The alert is renewed for {count} more days.':
    'El aviso se ha renovado {count, plural, one {# día más} other {# días más}}.',
  'The alert is up: neighbours within {km} km can see it now.':
    'El aviso está activo: los vecinos a menos de {km} km ya pueden verlo.',
  'Back home!': '¡De vuelta en casa!',
  'Thank you! The caretakers can see your report now.':
    '¡Gracias! Quienes cuidan del gato ya pueden ver tu aviso.',
  'Choose how people should reach you': 'Elige cómo pueden contactar contigo',
  'Choose the place on the map': 'Elige el lugar en el mapa',
  'Give the time as a date and time': 'Indica el momento con fecha y hora',
  'The time cannot be in the future': 'El momento no puede estar en el futuro',
  'The time must be within the last {count} days':
    'El momento debe estar dentro {count, plural, one {del último día} other {de los últimos # días}}',
  'The note is at most {count} characters':
    'La nota tiene como máximo {count, plural, one {# carácter} other {# caracteres}}',
  'The note contains invalid characters': 'La nota contiene caracteres no válidos',
  'limit must be a whole number from 1 to {max}': 'limit debe ser un número entero de 1 a {max}',

  // Reports, moderation, appeals, staff
  'Choose a reason for your report': 'Elige un motivo para tu denuncia',
  'Choose what you are reporting: a post, a comment, a person or a cat':
    'Elige qué denuncias: una foto, un comentario, una persona o un gato',
  'Thank you. Our moderators will review your report.':
    'Gracias. Nuestros moderadores revisarán tu denuncia.',
  'Your report is updated. Our moderators will review it.':
    'Tu denuncia se ha actualizado. Nuestros moderadores la revisarán.',
  'We could not find what you are reporting. It may have been deleted.':
    'No hemos encontrado lo que denuncias. Puede que se haya eliminado.',
  'You cannot report yourself or your own posts, comments or cats':
    'No puedes denunciarte a ti mismo ni denunciar tus fotos, comentarios o gatos',
  'You have sent {count} reports in the last hour. Please wait before sending more.':
    'Has enviado {count, plural, one {# denuncia} other {# denuncias}} en la última hora. Espera antes de enviar más.',
  'The note can be at most {count} characters':
    'La nota puede tener como máximo {count, plural, one {# carácter} other {# caracteres}}',
  'Only moderators can do this': 'Solo los moderadores pueden hacer esto',
  'Only admins can do this': 'Solo los administradores pueden hacer esto',
  'Choose an action: dismiss, remove, strip the location, warn or suspend':
    'Elige una acción: desestimar, retirar, quitar la ubicación, advertir o suspender',
  'Choose at least one action': 'Elige al menos una acción',
  'Choose each action once': 'Elige cada acción una sola vez',
  'Choose which rule was broken': 'Elige qué norma se ha incumplido',
  'A dismissal cannot be combined with other actions':
    'Una desestimación no se puede combinar con otras acciones',
  'A number of days goes only with a suspension': 'Un número de días solo acompaña a una suspensión',
  'A suspension lasts 1, 7 or 30 days, or until it is lifted':
    'Una suspensión dura 1, 7 o 30 días, o hasta que se levante',
  'Say why: the person affected reads this in their statement of reasons':
    'Explica el motivo: la persona afectada lo lee en su exposición de motivos',
  'The explanation can be at most {count} characters':
    'La explicación puede tener como máximo {count, plural, one {# carácter} other {# caracteres}}',
  'This report does not exist': 'Esta denuncia no existe',
  'This action does not exist': 'Esta acción no existe',
  'This action does not apply to what was reported': 'Esta acción no se aplica a lo que se ha denunciado',
  'This action cannot be undone': 'Esta acción no se puede deshacer',
  'This action has already been undone': 'Esta acción ya se ha deshecho',
  'You cannot act on your own content or account':
    'No puedes actuar sobre tu propio contenido o tu propia cuenta',
  'Nobody can act on an admin': 'Nadie puede actuar sobre un administrador',
  'The shared demo account cannot be warned or suspended: everyone signs in with it':
    'La cuenta de demostración compartida no se puede advertir ni suspender: todo el mundo entra con ella',
  'What was reported no longer exists': 'Lo que se denunció ya no existe',
  'This page of the queue does not exist': 'Esta página de la cola no existe',
  'This report has no picture': 'Esta denuncia no tiene foto',
  'Write a note first': 'Escribe primero una nota',
  'A note can be at most {count} characters':
    'Una nota puede tener como máximo {count, plural, one {# carácter} other {# caracteres}}',
  'The note cannot contain control characters': 'La nota no puede contener caracteres de control',
  'Choose what the note is about: a post, a comment, a person or a cat':
    'Elige sobre qué es la nota: una foto, un comentario, una persona o un gato',
  'Nothing was ever reported about this, so it takes no notes':
    'Nunca se ha denunciado nada sobre esto, así que no admite notas',
  'Choose a role: moderator or member': 'Elige un rol: moderador o miembro',
  'You cannot change your own role': 'No puedes cambiar tu propio rol',
  "An admin's role can only be changed on the command line (npm run admin)":
    'El rol de un administrador solo se puede cambiar desde la línea de comandos (npm run admin)',
  'Write why the decision should change': 'Escribe por qué debería cambiar la decisión',
  'An appeal can be at most {count} characters':
    'Una apelación puede tener como máximo {count, plural, one {# carácter} other {# caracteres}}',
  'This decision does not exist': 'Esta decisión no existe',
  'Only a removal, a hidden location, a warning or a suspension can be appealed':
    'Solo se puede apelar una retirada, una ubicación ocultada, una advertencia o una suspensión',
  'You have already appealed this decision': 'Ya has apelado esta decisión',
  'A decision can be appealed within {count} days':
    'Una decisión se puede apelar en un plazo de {count, plural, one {# día} other {# días}}',
  'This decision has already been undone': 'Esta decisión ya se ha deshecho',
  'Your appeal is sent. A moderator who did not take the decision will answer it.':
    'Tu apelación se ha enviado. La responderá un moderador que no tomó la decisión.',
  'This appeal does not exist': 'Esta apelación no existe',
  'This appeal has already been decided': 'Esta apelación ya se ha resuelto',
  'Another moderator must decide this appeal: you took the decision':
    'Otro moderador debe resolver esta apelación: tú tomaste la decisión',
  'You cannot decide your own appeal': 'No puedes resolver tu propia apelación',
  'Choose whether the decision stands or is undone': 'Elige si la decisión se mantiene o se deshace',
  'This account is not suspended: sign in to see moderation decisions':
    'Esta cuenta no está suspendida: inicia sesión para ver las decisiones de moderación',

  // Notifications, push, data export
  'Some of these notifications do not exist': 'Algunas de estas notificaciones no existen',
  'A stream ticket is required: take one from POST /api/notifications/stream-ticket':
    'Se necesita un ticket de flujo: pide uno con POST /api/notifications/stream-ticket',
  'This stream ticket is invalid or has expired: take a new one':
    'Este ticket de flujo no es válido o ha caducado: pide uno nuevo',
  'This stream ticket was already used: take a new one for each connection':
    'Este ticket de flujo ya se ha usado: pide uno nuevo para cada conexión',
  'This stream ticket was taken before the password was changed: take a new one':
    'Este ticket de flujo se pidió antes de que se cambiara la contraseña: pide uno nuevo',
  'Last-Event-ID must be an event id this stream sent':
    'Last-Event-ID debe ser el identificador de un evento enviado por este flujo',
  "This browser's push service is not one this server sends notifications to. Ask the server's operator to allow it.":
    'Este servidor no envía notificaciones al servicio push de este navegador. Pide a quien administra el servidor que lo permita.',
  "The subscription's keys are not a browser's push keys.":
    'Las claves de la suscripción no son claves push de un navegador.',
  'Your data is already being prepared': 'Ya se están preparando tus datos',
  'No download is ready': 'No hay ninguna descarga lista',
  'Your data could not be prepared. Please try again.':
    'No se han podido preparar tus datos. Vuelve a intentarlo.',
  'Preparing your data was interrupted. Please try again.':
    'Se interrumpió la preparación de tus datos. Vuelve a intentarlo.',
};
